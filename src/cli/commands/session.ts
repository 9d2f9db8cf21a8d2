import type { Command } from 'commander';
import { rotateSessionSecret } from '../../services/auth';
import { resolveEnvironment } from '../../services/environments';
import { ServiceError } from '../../services/errors';
import { issueSession, revokeSession } from '../../services/sessions';
import { printJson } from '../io';
import { cliNumber, configOverrides } from '../options';
import { withAccount, withServices, type CliRuntime } from '../runtime';

interface IssueOptions {
  env: string;
  endUser: string;
  email?: string;
  ip?: string;
  template?: string;
  expiresIn?: string;
  metadata?: string;
  account?: string;
  json?: boolean;
}

export function registerSession(program: Command, runtime: CliRuntime): void {
  const session = program.command('session').description('end-user session tokens');
  session
    .command('issue')
    .description('issue a session token; prints the bare token (TOKEN=$(importd session issue ...))')
    .requiredOption('--env <name>', 'environment the token is for')
    .requiredOption('--end-user <id>', 'end-user identifier (1-255 characters)')
    .option('--email <email>', 'end-user e-mail')
    .option('--ip <ip>', 'end-user IP address')
    .option('--template <id>', 'template id (uuid) the session is bound to')
    .option('--expires-in <seconds>', 'lifetime in seconds, 60-86400 (default 3600)')
    .option('--metadata <json>', 'JSON object of metadata')
    .option('--account <name>', 'account (default: default)')
    .option('--json', 'print JSON { sessionToken, expiresAt }')
    .action(async (options: IssueOptions, command: Command) => {
      const issued = await withAccount(runtime, configOverrides(command), options.account, async (ctx, accountId) => {
        const environment = await resolveEnvironment(ctx, accountId, options.env);
        return await issueSession(
          ctx,
          { accountId, environmentId: environment.id },
          {
            endUserId: options.endUser,
            endUserEmail: options.email,
            endUserIp: options.ip,
            templateId: options.template,
            expiresIn: options.expiresIn === undefined ? undefined : cliNumber(options.expiresIn, 'expiresIn'),
            metadata: options.metadata === undefined ? undefined : cliJson(options.metadata, 'metadata'),
          },
        );
      });
      if (options.json) printJson(runtime.io, issued);
      else runtime.io.out(`${issued.sessionToken}\n`);
    });

  session
    .command('revoke')
    .description("revoke a session token by its jti claim (as DELETE /v1/sessions/{jti}); repeating it is harmless")
    .argument('<jti>', "the token's jti claim")
    .option('--account <name>', 'account (default: default)')
    .option('--json', 'print JSON { jti, revokedAt }')
    .action(async (jti: string, options: { account?: string; json?: boolean }, command: Command) => {
      const revoked = await withAccount(runtime, configOverrides(command), options.account, async (ctx, accountId) => await revokeSession(ctx, accountId, jti));
      if (options.json) printJson(runtime.io, revoked);
      else runtime.io.out(`session ${revoked.jti} revoked at ${revoked.revokedAt}\n`);
    });

  session
    .command('rotate-secret')
    .description('sign new session tokens with a new secret; tokens signed with the previous one stay valid until they expire')
    .option('--json', 'print JSON { kid, rotatedAt, previousValidUntil }')
    .action(async (options: { json?: boolean }, command: Command) => {
      const rotated = await withServices(runtime, configOverrides(command), async (ctx) => await rotateSessionSecret(ctx));
      if (options.json) return printJson(runtime.io, rotated);
      runtime.io.out(
        `new session signing secret ${rotated.kid} in use; tokens signed with the previous one stay valid until they expire (at the latest ${rotated.previousValidUntil})\n`,
      );
    });
}

function cliJson(text: string, path: string): never | Record<string, unknown> {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new ServiceError('validation_failed', `${path}: not valid JSON`, [{ path, message: 'not valid JSON' }]);
  }
}
