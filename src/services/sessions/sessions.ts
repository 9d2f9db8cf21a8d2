import { SignJWT } from 'jose';
import { isoTime } from '../../core/clock';
import { newId } from '../../core/ids';
import { findAccountSession, insertSession, revokeSessionRow } from '../../db/sqlite/queries/sessions';
import { findTemplate } from '../../db/sqlite/queries/templates';
import type { ServiceContext } from '../context';
import { notFound } from '../errors';
import { parseInput } from '../validate';
import { IssueSessionInput, type IssuedSession, type RevokedSession } from './schemas';
import { currentSigningKey } from '../auth/session-signing-keys';

/**
 * Issues an end-user session token (HS256 JWT) for an environment and records its `jti` for audit and
 * revocation. Throws validation_failed, not_found (templateId not a template of the account).
 */
export async function issueSession(
  ctx: ServiceContext,
  scope: { accountId: string; environmentId: string },
  input: IssueSessionInput,
): Promise<IssuedSession> {
  const data = parseInput(IssueSessionInput, input);
  if (data.templateId && !findTemplate(ctx.db, scope.accountId, data.templateId)) throw notFound('template');
  const now = ctx.clock();
  const issuedAt = Math.floor(now.getTime() / 1000);
  const expiresAtSeconds = issuedAt + data.expiresIn;
  const jti = newId();
  const signing = currentSigningKey(ctx);
  const token = await new SignJWT({
    acc: scope.accountId,
    env: scope.environmentId,
    ...(data.templateId && { tpl: data.templateId }),
    ...(data.endUserEmail && { email: data.endUserEmail }),
    ...(data.endUserIp && { ip: data.endUserIp }),
    ...(data.metadata && { md: data.metadata }),
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT', ...(signing.kid !== null && { kid: signing.kid }) })
    .setSubject(data.endUserId)
    .setJti(jti)
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAtSeconds)
    .sign(signing.secret);
  const expiresAt = new Date(expiresAtSeconds * 1000).toISOString();
  insertSession(ctx.db, {
    jti,
    accountId: scope.accountId,
    environmentId: scope.environmentId,
    templateId: data.templateId ?? null,
    endUserId: data.endUserId,
    endUserEmail: data.endUserEmail ?? null,
    endUserIp: data.endUserIp ?? null,
    metadata: JSON.stringify(data.metadata ?? {}),
    createdAt: now.toISOString(),
    expiresAt,
    revokedAt: null,
  });
  return { sessionToken: token, expiresAt };
}

/** Revokes a session of the account so its token is refused from now on. Throws not_found. */
export function revokeSession(ctx: ServiceContext, accountId: string, jti: string): RevokedSession {
  const row = findAccountSession(ctx.db, accountId, jti);
  if (!row) throw notFound('session');
  const revokedAt = row.revokedAt ?? isoTime(ctx.clock);
  if (!row.revokedAt) revokeSessionRow(ctx.db, jti, revokedAt);
  return { jti, revokedAt };
}
