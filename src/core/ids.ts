import { randomBytes } from 'node:crypto';
import { uuidv7 } from 'uuidv7';

/** Time-ordered UUIDv7 for templates, imports, accounts, environments and keys. */
export function newId(): string {
  return uuidv7();
}

// Request ids are not secrets, only unique: random bytes are drawn 1 536 at a time (one randomBytes call per
// 128 requests) instead of one call per request, which cost about 5 µs of every small read.
const ID_BYTES = 12;
let pool = Buffer.alloc(0);
let offset = 0;

export function newRequestId(): string {
  if (offset + ID_BYTES > pool.length) {
    pool = randomBytes(ID_BYTES * 128);
    offset = 0;
  }
  offset += ID_BYTES;
  return `req_${pool.toString('base64url', offset - ID_BYTES, offset)}`;
}
