import { createRoute, OpenAPIHono, type RouteConfig } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { validationFailed, zodDetails } from '../services/errors';
import { requireCredential, type Credential, type CredentialOptions } from './credentials';
import type { AppDeps, AppEnv } from './env';
import type { OperationDocs } from './openapi-tags';
import { jsonDepthLimit } from './middleware/json-depth';

const SECURITY: Record<Credential, Record<string, string[]>[]> = {
  secret: [{ secretKey: [] }],
  'secret-or-public': [{ secretKey: [] }, { publicKey: [] }],
  'secret-or-session': [{ secretKey: [] }, { publicKey: [], sessionToken: [] }],
};

/** A sub-app whose zod validation failures all become validation_failed. */
export function createRouter(): OpenAPIHono<AppEnv> {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) throw validationFailed(zodDetails(result.error.issues));
    },
  });
}

/**
 * Declares a route with the credential it accepts; the credential check runs before any validation. The
 * types require an operationId, a summary, a description and one declared tag (see openapi-tags.ts).
 */
export function defineRoute<const R extends Omit<RouteConfig, 'middleware' | 'security' | keyof OperationDocs> & OperationDocs>(
  deps: AppDeps,
  credential: Credential,
  config: R,
  options: CredentialOptions = {},
) {
  const authenticate = requireCredential(deps.ctx, credential, options);
  return createRoute({
    ...config,
    security: SECURITY[credential],
    // The nesting check reads the body, so it comes after the credential check and before validation; a
    // GET has no body, so it does not cross that layer (typed as one handler: routes spread the list as is).
    middleware: (config.method === 'get' ? [authenticate] : [authenticate, jsonDepthLimit(deps.ctx.config.limits.jsonDepth)]) as [MiddlewareHandler<AppEnv>],
  });
}
