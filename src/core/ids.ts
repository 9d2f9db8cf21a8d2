import { randomBytes } from 'node:crypto';
import { uuidv7 } from 'uuidv7';

/** Time-ordered UUIDv7 for templates, imports, accounts, environments and keys. */
export function newId(): string {
  return uuidv7();
}

export function newRequestId(): string {
  return `req_${randomBytes(12).toString('base64url')}`;
}
