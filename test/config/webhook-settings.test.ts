import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config/config';

describe('webhook settings', () => {
  it('has the documented defaults', () => {
    assert.deepEqual(loadConfig({}).webhooks, {
      retrySchedule: [5, 300, 1800, 7200, 18000, 36000, 36000],
      timeoutMs: 10_000,
      allowPrivate: false,
      disableAfterMs: 3 * 86_400_000,
      maxEndpoints: 20,
      maxEndpointsPerAccount: 50,
    });
    assert.equal(loadConfig({}).maxEnvironmentsPerAccount, 50);
  });

  it('refuses a per-account cap that is not a positive whole number, naming the setting', () => {
    for (const [name, value] of [['IMPORTD_MAX_WEBHOOKS_PER_ACCOUNT', '0'], ['IMPORTD_MAX_ENVIRONMENTS_PER_ACCOUNT', 'many']] as const) {
      assert.throws(() => loadConfig({ [name]: value }), new RegExp(`invalid setting ${name}`));
    }
  });

  it('reads a schedule of seconds, spaces allowed', () => {
    assert.deepEqual(loadConfig({ IMPORTD_WEBHOOK_RETRY_SCHEDULE: ' 1, 2 ,30' }).webhooks.retrySchedule, [1, 2, 30]);
    assert.equal(loadConfig({ IMPORTD_WEBHOOK_ALLOW_PRIVATE: 'true' }).webhooks.allowPrivate, true);
  });

  const bad: [string, string, RegExp][] = [
    ['IMPORTD_WEBHOOK_RETRY_SCHEDULE', '', /expected seconds separated by commas/],
    ['IMPORTD_WEBHOOK_RETRY_SCHEDULE', '5,,300', /expected seconds separated by commas/],
    ['IMPORTD_WEBHOOK_RETRY_SCHEDULE', '5,-1', /expected seconds separated by commas/],
    ['IMPORTD_WEBHOOK_RETRY_SCHEDULE', '0,5', /at least 1 second/],
    ['IMPORTD_WEBHOOK_RETRY_SCHEDULE', '604801', /at most 604800/],
    ['IMPORTD_WEBHOOK_RETRY_SCHEDULE', Array(21).fill('1').join(','), /at most 20 retries/],
    ['IMPORTD_WEBHOOK_TIMEOUT_SECONDS', '0', /IMPORTD_WEBHOOK_TIMEOUT_SECONDS/],
    ['IMPORTD_WEBHOOK_TIMEOUT_SECONDS', '61', /IMPORTD_WEBHOOK_TIMEOUT_SECONDS/],
    ['IMPORTD_WEBHOOK_ALLOW_PRIVATE', 'maybe', /IMPORTD_WEBHOOK_ALLOW_PRIVATE/],
    ['IMPORTD_WEBHOOK_DISABLE_AFTER_SECONDS', '0', /IMPORTD_WEBHOOK_DISABLE_AFTER_SECONDS/],
    ['IMPORTD_WEBHOOK_MAX_ENDPOINTS', '0', /IMPORTD_WEBHOOK_MAX_ENDPOINTS/],
  ];
  for (const [name, value, message] of bad) {
    it(`refuses ${name}=${JSON.stringify(value.length > 20 ? `${value.slice(0, 20)}...` : value)}`, () => {
      assert.throws(() => loadConfig({ [name]: value }), (error: unknown) => error instanceof ConfigError && message.test(error.message) && error.message.includes(name));
    });
  }
});
