import { originAllowed } from '../../core/origins';
import { resolveAccount } from '../accounts';
import { authenticateKey } from '../auth';
import type { ServiceContext } from '../context';
import { listEnvironments, resolveEnvironment } from '../environments';
import { notFound, ServiceError } from '../errors';
import { issueSession } from '../sessions';

export interface EmbedDemoInput {
  account?: string | undefined;
  environment: string;
  templateKey: string;
  /** The environment's Public Key value, when the operator has it (key values are stored only as hashes). */
  publicKey?: string | undefined;
  /** The origin the demo page is served from. */
  pageOrigin: string;
}

export interface EmbedDemo {
  templateId: string;
  /** Whether the Public Key allows the page's origin already. */
  originAllowed: boolean;
  /** Issues a fresh 1-hour session token for the demo end-user (one per page load). */
  issueToken(): Promise<string>;
}

const DEMO_END_USER = 'embed-demo';

/**
 * Checks what `importd embed demo` needs: the environment, the template by key, and (when given) that the
 * Public Key is this environment's. Throws not_found (environment, template), invalid_api_key, wrong_key_kind.
 */
export async function prepareEmbedDemo(ctx: ServiceContext, input: EmbedDemoInput): Promise<EmbedDemo> {
  const account = await resolveAccount(ctx, input.account);
  const environment = await resolveEnvironment(ctx, account.id, input.environment);
  const template = await ctx.store.templates.findByKey(account.id, input.templateKey);
  if (!template) throw notFound(`template ${input.templateKey}`);
  if (input.publicKey !== undefined) {
    const key = await authenticateKey(ctx, input.publicKey);
    if (key.kind !== 'public' || key.environmentId !== environment.id) {
      throw new ServiceError('wrong_key_kind', `the key is not the Public Key of environment ${input.environment}`);
    }
  }
  const origins = (await listEnvironments(ctx, account.id)).find((view) => view.name === environment.name)?.publicKey?.allowedOrigins ?? [];
  return {
    templateId: template.id,
    originAllowed: originAllowed(input.pageOrigin, origins),
    issueToken: async () =>
      (await issueSession(ctx, { accountId: account.id, environmentId: environment.id }, { endUserId: DEMO_END_USER, templateId: template.id, expiresIn: 3600 }))
        .sessionToken,
  };
}
