import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config/config';

describe('configuration', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    assert.equal(config.dbPath, './data/importd.db');
    assert.equal(config.host, '0.0.0.0');
    assert.equal(config.port, 8080);
    assert.equal(config.maxBodyBytes, 64 * 1024 * 1024);
    assert.equal(config.logLevel, 'info');
    assert.equal(config.llm, undefined);
    assert.equal(config.metricsAddr, undefined);
  });

  it('reads IMPORTD_METRICS_ADDR as host:port (IPv6 in brackets)', () => {
    assert.deepEqual(loadConfig({ IMPORTD_METRICS_ADDR: '127.0.0.1:9464' }).metricsAddr, { host: '127.0.0.1', port: 9464 });
    assert.deepEqual(loadConfig({ IMPORTD_METRICS_ADDR: '[::1]:9464' }).metricsAddr, { host: '::1', port: 9464 });
    assert.deepEqual(loadConfig({ IMPORTD_METRICS_ADDR: 'metrics.internal:0', IMPORTD_PORT: '0' }).metricsAddr, { host: 'metrics.internal', port: 0 });
    assert.equal(loadConfig({ IMPORTD_METRICS_ADDR: '' }).metricsAddr, undefined);
  });

  it('lets flags override the environment, which overrides defaults', () => {
    const config = loadConfig({ IMPORTD_PORT: '9000', IMPORTD_DB: '/env.db' }, { IMPORTD_DB: '/flag.db' });
    assert.equal(config.port, 9000);
    assert.equal(config.dbPath, '/flag.db');
  });

  it('parses sizes', () => {
    assert.equal(loadConfig({ IMPORTD_MAX_BODY: '512kb' }).maxBodyBytes, 512 * 1024);
    assert.equal(loadConfig({ IMPORTD_MAX_BODY: '1GB' }).maxBodyBytes, 1024 ** 3);
  });

  const bad: [Record<string, string>, string][] = [
    [{ IMPORTD_PORT: 'eighty' }, 'IMPORTD_PORT'],
    [{ IMPORTD_PORT: '70000' }, 'IMPORTD_PORT'],
    [{ IMPORTD_MAX_BODY: 'lots' }, 'IMPORTD_MAX_BODY'],
    [{ IMPORTD_LOG_LEVEL: 'loud' }, 'IMPORTD_LOG_LEVEL'],
    [{ IMPORTD_SESSION_SECRET: 'short' }, 'IMPORTD_SESSION_SECRET'],
    [{ IMPORTD_RETENTION_DAYS: '0' }, 'IMPORTD_RETENTION_DAYS'],
    [{ IMPORTD_LLM_URL: 'not a url' }, 'IMPORTD_LLM_URL'],
    [{ IMPORTD_METRICS_ADDR: '9464' }, 'IMPORTD_METRICS_ADDR'],
    [{ IMPORTD_METRICS_ADDR: '127.0.0.1:99999' }, 'IMPORTD_METRICS_ADDR'],
    [{ IMPORTD_METRICS_ADDR: 'http://127.0.0.1:9464' }, 'IMPORTD_METRICS_ADDR'],
    [{ IMPORTD_METRICS_ADDR: '0.0.0.0:8080' }, 'IMPORTD_METRICS_ADDR'],
    [{ IMPORTD_METRICS_ADDR: '127.0.0.1:9000', IMPORTD_PORT: '9000' }, 'IMPORTD_METRICS_ADDR'],
    [{ IMPORTD_LLM_URL: 'http://127.0.0.1:1/v1' }, 'IMPORTD_LLM_URL'],
  ];
  for (const [env, name] of bad) {
    it(`fails fast naming ${name} for ${JSON.stringify(env)}`, () => {
      assert.throws(() => loadConfig(env), (error: unknown) => error instanceof ConfigError && error.message.includes(name));
    });
  }
});
