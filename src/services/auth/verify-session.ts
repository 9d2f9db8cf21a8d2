import { errors, jwtVerify } from 'jose';
import type { ServiceContext } from '../context';
import { ServiceError } from '../errors';
import { parseJsonObject } from '../json';
import type { SessionClaims } from './principal';
import { verificationSecret } from './session-signing-keys';

const invalid = (why: string) => new ServiceError('invalid_session', `the session token is ${why}`);

/**
 * Verifies a session token for the environment of the Public Key presented with it: HS256 only, signature (by
 * the secret its `kid` names, see session-signing-keys.ts), expiry (the token's `exp` and the stored
 * `expires_at`, against the service clock), a known and unrevoked `jti`, same account and environment.
 * Throws invalid_session.
 */
export async function verifySession(
  ctx: ServiceContext,
  token: string,
  scope: { accountId: string; environmentId: string },
): Promise<SessionClaims> {
  let payload;
  try {
    const secretOf = async (header: { kid?: string }) => {
      const secret = await verificationSecret(ctx, header.kid);
      if (!secret) throw new Error('no signing secret verifies this kid');
      return secret;
    };
    ({ payload } = await jwtVerify(token, secretOf, { algorithms: ['HS256'], currentDate: ctx.clock() }));
  } catch (error) {
    if (error instanceof errors.JWTExpired) throw invalid('expired');
    throw invalid('malformed or its signature does not verify');
  }
  const row = typeof payload.jti === 'string' ? await ctx.store.sessions.find(payload.jti) : undefined;
  if (!row) throw invalid('unknown');
  if (row.revokedAt) throw invalid('revoked');
  // The stored expiry bounds the token even if its own `exp` says later (a token re-signed with a leaked secret).
  if (row.expiresAt <= ctx.clock().toISOString()) throw invalid('expired');
  if (row.accountId !== scope.accountId || row.environmentId !== scope.environmentId) {
    throw invalid('for another environment');
  }
  return {
    jti: row.jti,
    endUserId: row.endUserId,
    accountId: row.accountId,
    environmentId: row.environmentId,
    templateId: row.templateId,
    endUserEmail: row.endUserEmail,
    endUserIp: row.endUserIp,
    metadata: parseJsonObject(row.metadata),
    expiresAt: row.expiresAt,
  };
}
