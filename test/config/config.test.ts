import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../src/config/config';

describe('configuration', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    assert.equal(config.dbPath, path.resolve('data', 'importd.db'), 'resolved against the working folder');
    assert.equal(config.host, '0.0.0.0');
    assert.equal(config.port, 8080);
    assert.equal(config.maxBodyBytes, 64 * 1024 * 1024);
    assert.equal(config.logLevel, 'info');
    assert.equal(config.llm, undefined);
    assert.equal(config.mapHeadersBudget, 20_000_000);
    assert.equal(config.metricsAddr, undefined);
    assert.equal(config.leaseSeconds, 30);
    assert.deepEqual(config.postgres, { poolSize: 10, writers: 10, connectTimeoutMs: 5000, statementTimeoutMs: 30_000, idleInTransactionTimeoutMs: 60_000 });
    assert.equal(config.shutdownGraceSeconds, 25);
  });

  it('reads the PostgreSQL connection counts', () => {
    assert.deepEqual(loadConfig({ IMPORTD_PG_POOL_SIZE: '3', IMPORTD_PG_WRITERS: '1' }).postgres, {
      poolSize: 3,
      writers: 1,
      connectTimeoutMs: 5000,
      statementTimeoutMs: 30_000,
      idleInTransactionTimeoutMs: 60_000,
    });
  });

  it('takes IMPORTD_ACCOUNT_QUOTA_BYTES as 0 (off) or a size of at least 1kb', () => {
    assert.equal(loadConfig({}).limits.accountQuotaBytes, 0);
    assert.equal(loadConfig({ IMPORTD_ACCOUNT_QUOTA_BYTES: '0' }).limits.accountQuotaBytes, 0);
    assert.equal(loadConfig({ IMPORTD_ACCOUNT_QUOTA_BYTES: '2mb' }).limits.accountQuotaBytes, 2 * 1024 * 1024);
    for (const bad of ['512', '-1', 'lots']) assert.throws(() => loadConfig({ IMPORTD_ACCOUNT_QUOTA_BYTES: bad }), /IMPORTD_ACCOUNT_QUOTA_BYTES/);
  });

  it('reads the PostgreSQL timeouts and the shutdown grace, and refuses a timeout below 100 ms', () => {
    const config = loadConfig({
      IMPORTD_PG_CONNECT_TIMEOUT_MS: '700',
      IMPORTD_PG_STATEMENT_TIMEOUT_MS: '800',
      IMPORTD_PG_IDLE_IN_TRANSACTION_TIMEOUT_MS: '900',
      IMPORTD_SHUTDOWN_GRACE_SECONDS: '2',
    });
    assert.deepEqual(config.postgres, { poolSize: 10, writers: 10, connectTimeoutMs: 700, statementTimeoutMs: 800, idleInTransactionTimeoutMs: 900 });
    assert.equal(config.shutdownGraceSeconds, 2);
    assert.throws(() => loadConfig({ IMPORTD_PG_STATEMENT_TIMEOUT_MS: '5' }), /IMPORTD_PG_STATEMENT_TIMEOUT_MS/);
    assert.throws(() => loadConfig({ IMPORTD_SHUTDOWN_GRACE_SECONDS: '0' }), /IMPORTD_SHUTDOWN_GRACE_SECONDS/);
  });

  it('reads the LLM prompt cap and cache size', () => {
    const llm = { IMPORTD_LLM_URL: 'http://127.0.0.1:1/v1', IMPORTD_LLM_MODEL: 'm', IMPORTD_LLM_API_KEY: 'k' };
    assert.equal(loadConfig(llm).llm?.maxPromptBytes, 64 * 1024);
    assert.equal(loadConfig(llm).llm?.cacheEntries, 1000);
    const set = loadConfig({ ...llm, IMPORTD_LLM_MAX_PROMPT: '16kb', IMPORTD_LLM_CACHE_ENTRIES: '0' }).llm;
    assert.deepEqual([set?.maxPromptBytes, set?.cacheEntries], [16 * 1024, 0]);
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
    [{ IMPORTD_LEASE_SECONDS: '2' }, 'IMPORTD_LEASE_SECONDS'],
    [{ IMPORTD_LEASE_SECONDS: '3601' }, 'IMPORTD_LEASE_SECONDS'],
    [{ IMPORTD_LEASE_SECONDS: 'soon' }, 'IMPORTD_LEASE_SECONDS'],
    [{ IMPORTD_PG_POOL_SIZE: '0' }, 'IMPORTD_PG_POOL_SIZE'],
    [{ IMPORTD_PG_POOL_SIZE: '1001' }, 'IMPORTD_PG_POOL_SIZE'],
    [{ IMPORTD_PG_POOL_SIZE: 'lots' }, 'IMPORTD_PG_POOL_SIZE'],
    [{ IMPORTD_PG_WRITERS: '0' }, 'IMPORTD_PG_WRITERS'],
    [{ IMPORTD_PG_WRITERS: '2.5' }, 'IMPORTD_PG_WRITERS'],
    [{ IMPORTD_LLM_URL: 'not a url' }, 'IMPORTD_LLM_URL'],
    [{ IMPORTD_METRICS_ADDR: '9464' }, 'IMPORTD_METRICS_ADDR'],
    [{ IMPORTD_METRICS_ADDR: '127.0.0.1:99999' }, 'IMPORTD_METRICS_ADDR'],
    [{ IMPORTD_METRICS_ADDR: 'http://127.0.0.1:9464' }, 'IMPORTD_METRICS_ADDR'],
    [{ IMPORTD_METRICS_ADDR: '999.1.1.1:9464' }, 'IMPORTD_METRICS_ADDR'],
    [{ IMPORTD_METRICS_ADDR: '1.2.3:9464' }, 'IMPORTD_METRICS_ADDR'],
    [{ IMPORTD_METRICS_ADDR: '_:9464' }, 'IMPORTD_METRICS_ADDR'],
    [{ IMPORTD_METRICS_ADDR: '[::::::]:9464' }, 'IMPORTD_METRICS_ADDR'],
    [{ IMPORTD_METRICS_ADDR: '0.0.0.0:8080' }, 'IMPORTD_METRICS_ADDR'],
    [{ IMPORTD_METRICS_ADDR: '127.0.0.1:9000', IMPORTD_PORT: '9000' }, 'IMPORTD_METRICS_ADDR'],
    [{ IMPORTD_LLM_URL: 'http://127.0.0.1:1/v1' }, 'IMPORTD_LLM_URL'],
    [{ IMPORTD_HOST: '256.1.1.1' }, 'IMPORTD_HOST'],
    [{ IMPORTD_HOST: 'bad host' }, 'IMPORTD_HOST'],
    [{ IMPORTD_DB: 'postgres://importd@[db.internal/importd' }, 'IMPORTD_DB'],
    [{ IMPORTD_DB: 'postgresql://u:p@db:port/importd' }, 'IMPORTD_DB'],
    [{ IMPORTD_LLM_MAX_PROMPT: '10' }, 'IMPORTD_LLM_MAX_PROMPT'],
    [{ IMPORTD_LLM_CACHE_ENTRIES: '-1' }, 'IMPORTD_LLM_CACHE_ENTRIES'],
    [{ IMPORTD_MAP_HEADERS_BUDGET: 'many' }, 'IMPORTD_MAP_HEADERS_BUDGET'],
    [{ IMPORTD_LEARN_MIN_END_USERS: '0' }, 'IMPORTD_LEARN_MIN_END_USERS'],
  ];
  it('asks 2 distinct end-users to confirm a learned pair unless told otherwise', () => {
    assert.equal(loadConfig({}).learnMinEndUsers, 2);
    assert.equal(loadConfig({ IMPORTD_LEARN_MIN_END_USERS: '3' }).learnMinEndUsers, 3);
  });

  for (const [env, name] of bad) {
    it(`fails fast naming ${name} for ${JSON.stringify(env)}`, () => {
      assert.throws(() => loadConfig(env), (error: unknown) => error instanceof ConfigError && error.message.includes(name));
    });
  }

  for (const url of ['postgres://importd@db.internal/importd', 'POSTGRESQL://u:p@db.internal:5432/importd?sslmode=require']) {
    it(`takes the PostgreSQL URL ${url} as it is, never as a file path`, () => assert.equal(loadConfig({ IMPORTD_DB: url }).dbPath, url));
  }

  const hosts = ['127.0.0.1', '0.0.0.0', '::', '::1', 'localhost', 'importd.internal', 'my-host'];
  for (const host of hosts) {
    it(`accepts the listen host ${host}`, () => assert.equal(loadConfig({ IMPORTD_HOST: host }).host, host));
  }

  const proxies: [string, string[]][] = [
    ['', []],
    ['10.0.0.1', ['10.0.0.1/32']],
    [' 10.0.0.0/8 , fd00::/8,2001:db8::1 ', ['10.0.0.0/8', 'fd00::/8', '2001:db8::1/128']],
    ['172.16.0.0/12,::1', ['172.16.0.0/12', '::1/128']],
    // IPv4-mapped blocks are IPv4 blocks: peers are compared as IPv4 when mapped.
    ['::ffff:10.0.0.0/104, ::ffff:192.0.2.1', ['10.0.0.0/8', '192.0.2.1/32']],
  ];
  for (const [text, ranges] of proxies) {
    it(`reads IMPORTD_TRUSTED_PROXIES ${JSON.stringify(text)}`, () => {
      const parsed = loadConfig({ IMPORTD_TRUSTED_PROXIES: text }).trustedProxies;
      assert.deepEqual(parsed.map(([first, prefix]) => `${first.toString()}/${prefix}`), ranges);
    });
  }
  it('trusts no proxy by default', () => assert.deepEqual(loadConfig({}).trustedProxies, []));

  for (const text of ['garbage', 'localhost', '10.0.0.0/33', '2001:db8::/129', '10.0.0.1/', '/8', '10.0.0.0/8/8', '10.0.0.0/-1', '10', '010.0.0.1', '300.1.1.1', '10.0.0.1,,10.0.0.2', '10.0.0.1,', '10.0.0.1 10.0.0.2', '10.0.0.1:80']) {
    it(`refuses IMPORTD_TRUSTED_PROXIES ${JSON.stringify(text)}, naming it and the entry`, () => {
      assert.throws(() => loadConfig({ IMPORTD_TRUSTED_PROXIES: text }), (error: Error) => {
        assert.equal(error.name, 'ConfigError');
        assert.match(error.message, /^invalid setting IMPORTD_TRUSTED_PROXIES: ".*" is not an IP address or a CIDR block/);
        return true;
      });
    });
  }

  const flags: [Record<string, string>, string][] = [
    [{ IMPORTD_PORT: '99999' }, 'invalid setting --port: expected a port number up to 65535'],
    [{ IMPORTD_PORT: 'http' }, 'invalid setting --port: expected a port number'],
    [{ IMPORTD_HOST: '256.1.1.1' }, 'invalid setting --host: expected an IP address (such as 127.0.0.1 or ::) or a host name'],
    [{ IMPORTD_DB: 'postgresql://u:p@db:port/importd' }, 'invalid setting --db: expected a PostgreSQL URL such as postgres://user:password@host:5432/importd'],
  ];
  for (const [overrides, message] of flags) {
    it(`names the flag, not the variable, for a flag's bad value ${JSON.stringify(overrides)}`, () => {
      assert.throws(() => loadConfig({ IMPORTD_PORT: '8080', IMPORTD_HOST: '::' }, overrides), { name: 'ConfigError', message });
    });
  }
});
