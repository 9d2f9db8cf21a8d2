import type { RawConfig } from '../../src/config/config';
import { call, createHarness, createTestEnvironment, json, testClock, type Harness, type TestEnvironment } from '../helpers/harness';

/** A harness whose webhooks may reach the local receiver, with a clock tests move (starting now: signatures verify). */
export async function webhookHarness(config: Partial<RawConfig> = {}) {
  const clock = testClock(new Date().toISOString());
  const h = await createHarness({ clock, config: { IMPORTD_WEBHOOK_ALLOW_PRIVATE: 'true', ...config } });
  return { h, clock, env: await createTestEnvironment(h) };
}

export async function registerWebhook(h: Harness, env: TestEnvironment, body: Record<string, unknown>) {
  const response = await call(h, 'POST', '/v1/webhooks', { key: env.secretKey, body });
  if (response.status !== 201) throw new Error(`webhook not created: ${response.status} ${await response.text()}`);
  return await json<{ id: string; secret: string; url: string; events: string[] }>(response);
}

export async function postImport(h: Harness, env: TestEnvironment, rows: unknown[] = [{ name: 'Ada' }]) {
  const response = await call(h, 'POST', '/v1/imports', { key: env.secretKey, body: { meta: { schemaKey: 'contacts' }, rows } });
  if (response.status !== 201) throw new Error(`import not created: ${response.status} ${await response.text()}`);
  return await json<{ id: string; rowCount: number }>(response);
}

export async function deliveries(h: Harness, env: TestEnvironment, webhookId: string) {
  const response = await call(h, 'GET', `/v1/webhooks/${webhookId}/deliveries`, { key: env.secretKey });
  if (response.status !== 200) throw new Error(`deliveries: ${response.status} ${await response.text()}`);
  return (await json<{ data: Record<string, any>[] }>(response)).data;
}
