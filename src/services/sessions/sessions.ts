import { SignJWT } from 'jose';
import { isoTime } from '../../core/clock';
import { newId } from '../../core/ids';
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
  if (data.templateId && !(await ctx.store.templates.find(scope.accountId, data.templateId))) throw notFound('template');
  const now = ctx.clock();
  const issuedAt = Math.floor(now.getTime() / 1000);
  const expiresAtSeconds = issuedAt + data.expiresIn;
  const jti = newId();
  const signing = await currentSigningKey(ctx);
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
  await ctx.store.sessions.insert({
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
export async function revokeSession(ctx: ServiceContext, accountId: string, jti: string): Promise<RevokedSession> {
  const row = await ctx.store.sessions.findOfAccount(accountId, jti);
  if (!row) throw notFound('session');
  if (row.revokedAt) return { jti, revokedAt: row.revokedAt };
  // Revokes unless a concurrent call did first; the time stored is the answer either way.
  await ctx.store.sessions.revoke(jti, isoTime(ctx.clock));
  return { jti, revokedAt: (await ctx.store.sessions.find(jti))!.revokedAt! };
}
