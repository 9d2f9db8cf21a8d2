import { before, describe } from 'node:test';
import type { Credential } from '../../src/http/credentials';
import { createTemplate } from '../../src/services/templates';
import { authFailureSuite } from '../helpers/auth-suite';
import { validTheme } from '../helpers/fixtures';
import { useHarness } from '../helpers/use-harness';

// Every route of templates, themes, sessions and statistics answers authentication failures alike.
describe('templates, themes, sessions, statistics: credentials', () => {
  const { h, env, other } = useHarness({ environments: { other: { account: 'other-account' } } });
  let templateId: string;
  before(async () => {
    templateId = (await createTemplate(h.ctx, env.accountId, { schema: { key: 'contacts' } })).id;
  });

  const routes: [string, string, () => string, Credential, (() => unknown)?][] = [
    ['POST', '/v1/templates', () => '/v1/templates', 'secret', () => ({ schema: { key: 'new' } })],
    ['GET', '/v1/templates', () => '/v1/templates', 'secret'],
    ['GET', '/v1/templates/{id}', () => `/v1/templates/${templateId}`, 'secret-or-public'],
    ['PUT', '/v1/templates/{id}', () => `/v1/templates/${templateId}`, 'secret', () => ({ schema: {} })],
    ['POST', '/v1/themes', () => '/v1/themes', 'secret', () => validTheme()],
    ['PUT', '/v1/themes', () => '/v1/themes', 'secret', () => validTheme()],
    ['GET', '/v1/themes', () => '/v1/themes', 'secret-or-public'],
    ['POST', '/v1/sessions', () => '/v1/sessions', 'secret', () => ({ endUserId: 'u' })],
    ['DELETE', '/v1/sessions/{jti}', () => '/v1/sessions/some-jti', 'secret'],
    ['GET', '/v1/stats/overview', () => '/v1/stats/overview', 'secret'],
  ];
  for (const [method, name, path, credential, body] of routes) {
    authFailureSuite({
      name: `${method} ${name}`,
      harness: () => h,
      env: () => env,
      other: () => other,
      method,
      path,
      credential,
      ...(body && { body }),
    });
  }
});
