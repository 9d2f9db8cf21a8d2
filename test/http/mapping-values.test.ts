import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { issueSession } from '../../src/services/sessions/sessions';
import { call, json, testClock, type TestEnvironment } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';
import { postImport } from '../imports/helpers';
import { templateIdOf } from './learned-helpers';

// Enum values learned from imports (meta.valueMapping): remembered per account, template and confirmer like
// header mappings, returned with the field's map-headers entry, never across accounts.
const PATH = '/v1/intelligence/map-headers';
const SCHEMA = { fields: [{ key: 'status', label: 'Status', type: 'enum', options: ['active', 'paused'] }, { key: 'email', label: 'Email', type: 'email' }] };
const HEADERS = { schemaHeaders: [{ key: 'status', label: 'Status' }, { key: 'email', label: 'Email' }], fileHeaders: [{ key: 'State', label: 'State' }, { key: 'Email', label: 'Email' }] };
type Answer = Record<string, { fileKey: string; confidence: number; source?: string; values?: Record<string, string> }>;

describe('enum values learned from imports', () => {
  const clock = testClock();
  const { h, env, other } = useHarness({ clock, environments: { other: { account: 'other-account' } } });

  const importInto = (e: TestEnvironment, meta: Record<string, unknown>) => postImport(h, e, { meta: { schemaKey: 'orders', ...meta }, originalSchema: { key: 'orders', ...SCHEMA }, rows: [{ status: 'active' }] });
  /** An import by an end-user through the Public Key and a session, as the importer sends it. */
  const confirmAs = async (endUserId: string, valueMapping: Record<string, Record<string, string>>) => {
    clock.advance(1000);
    const templateId = await templateIdOf(h, env, 'orders');
    const { sessionToken } = await issueSession(h.ctx, env, { endUserId, templateId });
    const response = await call(h, 'POST', '/v1/imports', { key: env.publicKey, origin: env.origin, session: sessionToken, body: { meta: { mapping: { status: 'State' }, valueMapping }, rows: [{ status: 'active' }] } });
    assert.equal(response.status, 201, await response.clone().text());
  };
  const valuesFor = async (e: TestEnvironment) => {
    const response = await call(h, 'POST', PATH, { key: e.secretKey, body: { ...HEADERS, templateId: await templateIdOf(h, e, 'orders') } });
    assert.equal(response.status, 200, await response.clone().text());
    return (await json<Answer>(response)).status?.values;
  };
  const stored = () => h.sql('SELECT schema_key, file_value, file_label FROM learned_mappings WHERE file_value <> \'\' ORDER BY schema_key, file_value, confirmer');

  it('creates the template in both accounts', async () => {
    for (const e of [env, other]) assert.equal((await importInto(e, {})).status, 201);
    assert.equal(await valuesFor(env), undefined, 'nothing learned yet');
  });

  it('refuses a malformed meta.valueMapping with 400 at its path, storing nothing', async () => {
    const many = { status: Object.fromEntries(Array.from({ length: 501 }, (_, i) => [`v${i}`, 'active'])) };
    const cases: [unknown, string][] = [
      ['active', 'meta.valueMapping'],
      [{ status: 'active' }, 'meta.valueMapping.status'],
      [{ status: ['active'] }, 'meta.valueMapping.status'],
      [{ status: { 'on hold': 7 } }, 'meta.valueMapping.status.on hold'],
      [{ status: { 'on hold': ' ' } }, 'meta.valueMapping.status.on hold'],
      [{ status: { ' ': 'paused' } }, 'meta.valueMapping.status. '],
      [{ status: { ['x'.repeat(201)]: 'paused' } }, `meta.valueMapping.status.${'x'.repeat(201)}`],
      [{ ['k'.repeat(201)]: { a: 'paused' } }, `meta.valueMapping.${'k'.repeat(201)}`],
      [many, 'meta.valueMapping'],
    ];
    for (const [valueMapping, path] of cases) {
      const response = await importInto(env, { valueMapping });
      const { error } = await json(response);
      assert.equal(response.status, 400, JSON.stringify(valueMapping).slice(0, 80));
      assert.ok(error.details.some((d: { path: string }) => d.path === path), `${path}: ${JSON.stringify(error.details).slice(0, 300)}`);
    }
    assert.deepEqual(await stored(), []);
  });

  it("returns an end-user's confirmed values with the field's entry, to the same account only", async () => {
    // JSON.parse makes "__proto__" an own member: a value like any other.
    const values = JSON.parse('{"on hold":"paused","Live":"active","__proto__":"paused"}');
    await confirmAs('alice', { status: values });
    assert.deepEqual(await valuesFor(env), values);
    assert.equal(await valuesFor(other), undefined, 'another account never sees them');
    assert.deepEqual((await stored()).length, 3);
  });

  it('lets a value confirmed by a Secret Key import, or by enough end-users, win over one end-user', async () => {
    await confirmAs('mallory', { status: { Live: 'paused' } });
    // alice and mallory, one each: the later one wins until one of them is preferred.
    assert.equal((await valuesFor(env))!.Live, 'paused');
    assert.equal((await importInto(env, { valueMapping: { status: { Live: 'active' } } })).status, 201);
    assert.equal((await valuesFor(env))!.Live, 'active');
    await confirmAs('bob', { status: { Dormant: 'paused' } });
    await confirmAs('carol', { status: { Dormant: 'paused' } });
    await confirmAs('mallory', { status: { Dormant: 'active' } });
    assert.equal((await valuesFor(env))!.Dormant, 'paused', 'two end-users (IMPORTD_LEARN_MIN_END_USERS) outrank one later');
  });

  it("forgets an end-user's values with their erasure, and a template's with mappings forget", async () => {
    const before = (await stored()).length;
    assert.equal((await call(h, 'DELETE', '/v1/end-users/mallory', { key: env.secretKey })).status, 200);
    assert.equal((await stored()).length, before - 2);
    assert.equal((await valuesFor(env))!.Dormant, 'paused');
  });
});
