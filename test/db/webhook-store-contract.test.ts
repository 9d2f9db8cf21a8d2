import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { DeliveryAttempt, NewImportRow, Store, WebhookEndpointRow, WebhookEventDraft } from '../../src/db/store';
import { type TestEnvironment } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';

// The webhook part of the store contract: the outbox commits with the change or not at all, and leases keep
// two senders off the same delivery. Every engine must pass it.

const at = '2026-01-31T12:00:00.000Z';
const later = (seconds: number) => new Date(Date.parse(at) + seconds * 1000).toISOString();

describe('the webhook store contract', () => {
  const { h, env, staging, other } = useHarness({ environments: { staging: { name: 'staging' }, other: { name: 'prod', account: 'other' } } });
  let store: Store;
  before(async () => {
    store = h.ctx.store;
    await store.templates.insert({ id: 't', accountId: env.accountId, key: 'k', schema: '{}', source: 'studio', metadata: '{}', createdAt: at, updatedAt: at });
  });

  const endpoint = (id: string, e: TestEnvironment, events = ['import.completed']): WebhookEndpointRow => ({
    id, accountId: e.accountId, environmentId: e.environmentId, url: `https://hooks.example.com/${id}`, description: '', events,
    secret: 'whsec_c2VjcmV0', active: true, disabledReason: null, failingSince: null, createdAt: at,
  });
  const event = (id: string, e: TestEnvironment | null, type = 'import.completed'): WebhookEventDraft => ({
    id, accountId: env.accountId, environmentId: e?.environmentId ?? null, type, importId: null, endUserId: null, payload: `{"id":"${id}"}`, createdAt: at,
  });
  const writingImport = (id: string): NewImportRow => ({
    id, accountId: env.accountId, environmentId: env.environmentId, templateId: 't', status: 'writing', writerNode: 'writer', leaseUntil: '2999-01-01T00:00:00.000Z', meta: '{}', originalSchema: '{}',
    file: null, fileId: null, endUserId: null, endUserEmail: null, endUserIp: null, importedFrom: 'api', sessionJti: null, rowCount: 0, cellStats: '{}',
    createdAt: at, updatedAt: at,
  });
  const attempt = (eventId: string, owner: string, ok: boolean, extra: Partial<DeliveryAttempt> = {}): DeliveryAttempt => ({
    endpointId: 'w1', eventId, owner, at, ok, statusCode: ok ? 200 : 500, response: '', error: null, nextAttemptAt: ok ? null : later(5),
    disable: { failingSince: '2000-01-01T00:00:00.000Z', reason: 'r' }, ...extra,
  });

  const claim = (now: string, owner: string, leaseUntil: string, limit: number, perEndpoint = 100, endpoints: Record<string, number> = {}, perAccount = 100, accounts: Record<string, number> = {}) => ({
    now, owner, leaseUntil, limit, perEndpoint, perAccount, inFlight: { endpoints, accounts }, endpoints: ['w1', 'w2', 'w3', 'w4', 'w5', 'w6'],
  });

  const caps = (perEnvironment: number, perAccount = 100) => ({ perEnvironment, perAccount });
  // Every event awaiting fan-out gets its deliveries (the sender's work, done here at once).
  const fanOutAll = async () => {
    while ((await store.webhooks.fanOut(null, 100, 100)).accounts.length > 0);
  };

  it('inserts endpoints up to the caps of their environment and their account', async () => {
    assert.equal(await store.webhooks.insertEndpoint(endpoint('w1', env), caps(2)), 'inserted');
    assert.equal(await store.webhooks.insertEndpoint(endpoint('w2', env, ['import.deleted']), caps(2)), 'inserted');
    assert.equal(await store.webhooks.insertEndpoint(endpoint('w3', env), caps(2)), 'environment_full');
    assert.equal(await store.webhooks.insertEndpoint(endpoint('w3', staging), caps(2, 2)), 'account_full');
    assert.equal(await store.webhooks.insertEndpoint(endpoint('w4', staging), caps(2)), 'inserted');
    assert.equal(await store.webhooks.countEndpoints({ accountId: env.accountId, environmentId: env.environmentId }), 2);
    assert.equal(await store.webhooks.countEndpoints({ accountId: env.accountId }), 3);
  });

  it('writes the event with the completion, for the subscribed endpoints of its environment only; none when the completion fails', async () => {
    await store.imports.insert(writingImport('i1'));
    const values = { rowCount: 0, cellStats: '{}', createdAt: at, updatedAt: at };
    assert.equal(await store.imports.complete('i1', 'another-node', values, event('e0', env)), false);
    assert.deepEqual(await store.imports.complete('i1', 'writer', values, event('e1', env)), { changes: null });
    assert.equal(await store.webhooks.countDeliveries('w1'), 0, 'the request writes the event alone');
    await fanOutAll();
    assert.deepEqual((await store.webhooks.pageDeliveries('w1', undefined, 10)).map((d) => d.eventId), ['e1']);
    assert.equal(await store.webhooks.countDeliveries('w2'), 0, 'not subscribed to import.completed');
    assert.equal(await store.webhooks.countDeliveries('w4'), 0, 'another environment');
    const stored = await h.sql('SELECT id FROM webhook_events');
    assert.deepEqual(stored, [{ id: 'e1' }]);
  });

  it('leases a due delivery to one owner until the lease expires; a stale owner cannot record it', async () => {
    assert.deepEqual(await store.webhooks.claimDue(claim(later(-1), 'node-a', later(10), 10)), [], 'not due yet');
    const [claimed] = await store.webhooks.claimDue(claim(at, 'node-a', later(10), 10));
    assert.deepEqual(claimed, { accountId: env.accountId, endpointId: 'w1', eventId: 'e1', attempts: 0, url: 'https://hooks.example.com/w1', secret: 'whsec_c2VjcmV0', payload: '{"id":"e1"}' });
    assert.deepEqual(await store.webhooks.claimDue(claim(later(9), 'node-b', later(20), 10)), [], 'leased to node-a');
    assert.equal((await store.webhooks.claimDue(claim(later(10), 'node-b', later(20), 10))).length, 1, 'the lease expired');
    assert.equal(await store.webhooks.recordAttempt(attempt('e1', 'node-a', true)), false);
    assert.equal(await store.webhooks.recordAttempt(attempt('e1', 'node-b', false)), true);
    const [log] = await store.webhooks.pageDeliveries('w1', undefined, 10);
    assert.equal(log!.status, 'pending');
    assert.equal(log!.attempts, 1);
    assert.equal(log!.nextAttemptAt, later(5));
  });

  it('never claims a delivered delivery again; redeliver makes it due at once', async () => {
    await store.webhooks.claimDue(claim(later(5), 'node-a', later(20), 10));
    assert.equal(await store.webhooks.recordAttempt(attempt('e1', 'node-a', true)), true);
    assert.deepEqual(await store.webhooks.claimDue(claim(later(99_999), 'node-a', later(100_000), 10)), []);
    assert.deepEqual(await store.webhooks.redeliver({ accountId: env.accountId, environmentId: staging.environmentId }, 'e1', undefined, later(30)), { due: 0, disabled: 0 });
    assert.deepEqual(await store.webhooks.redeliver({ accountId: env.accountId }, 'e1', 'w1', later(30)), { due: 1, disabled: 0 });
    assert.equal((await store.webhooks.claimDue(claim(later(30), 'node-a', later(40), 10))).length, 1);
  });

  it('disables an endpoint failing since the cutoff, fails its pending deliveries, and skips it when writing, claiming and redelivering', async () => {
    await store.imports.insert(writingImport('i1b'));
    await store.imports.complete('i1b', 'writer', { rowCount: 0, cellStats: '{}', createdAt: at, updatedAt: at }, event('e1b', env));
    await store.imports.insert(writingImport('i1c'));
    await store.imports.complete('i1c', 'writer', { rowCount: 0, cellStats: '{}', createdAt: at, updatedAt: at }, event('e1c', env));
    await fanOutAll();
    // e1 is leased to node-a (the test before); node-b leases e1b and e1c: their attempts are in flight.
    assert.equal((await store.webhooks.claimDue(claim(later(31), 'node-b', later(50), 10))).length, 2);
    assert.equal(await store.webhooks.recordAttempt(attempt('e1', 'node-a', false, { disable: { failingSince: later(60), reason: 'failing' } })), true);
    const disabled = await store.webhooks.findEndpoint({ accountId: env.accountId }, 'w1');
    assert.equal(disabled!.active, false);
    assert.equal(disabled!.disabledReason, 'failing');
    // The attempts in flight are still recorded: a success as delivered, a failure as failed although its schedule goes on.
    assert.equal(await store.webhooks.recordAttempt(attempt('e1b', 'node-b', true)), true);
    assert.equal(await store.webhooks.recordAttempt(attempt('e1c', 'node-b', false)), true);
    const logs = Object.fromEntries((await store.webhooks.pageDeliveries('w1', undefined, 10)).map((d) => [d.eventId, d]));
    assert.deepEqual([logs.e1!.status, logs.e1!.nextAttemptAt, logs.e1!.lastStatusCode, logs.e1!.lastError], ['failed', null, 500, 'the endpoint was disabled']);
    assert.deepEqual([logs.e1b!.status, logs.e1b!.attempts], ['delivered', 1]);
    assert.deepEqual([logs.e1c!.status, logs.e1c!.nextAttemptAt, logs.e1c!.attempts], ['failed', null, 1]);
    assert.deepEqual(await store.webhooks.claimDue(claim(later(99_999), 'node-a', later(100_000), 10)), []);
    assert.deepEqual(await store.webhooks.redeliver({ accountId: env.accountId }, 'e1', 'w1', later(30)), { due: 0, disabled: 1 });
    assert.deepEqual(await store.webhooks.redeliver({ accountId: env.accountId }, 'e1', undefined, later(30)), { due: 0, disabled: 1 });
    await store.imports.insert(writingImport('i2'));
    await store.imports.complete('i2', 'writer', { rowCount: 0, cellStats: '{}', createdAt: at, updatedAt: at }, event('e2', env));
    await fanOutAll();
    assert.equal(await store.webhooks.countDeliveries('w1'), 3);
  });

  it('writes an account-wide event (no environment) for every environment, and an import deletion for its environment', async () => {
    await store.compliance.hideEndUser(env.accountId, 'nobody', event('e3-nothing', null, 'import.deleted'));
    assert.deepEqual(await h.sql(`SELECT id FROM webhook_events WHERE id = 'e3-nothing'`), [], 'an erasure that erased nothing reports nothing');
    await store.imports.insert({ ...writingImport('i-u'), environmentId: staging.environmentId, endUserId: 'u' });
    await store.compliance.hideEndUser(env.accountId, 'u', event('e3', null, 'import.deleted'));
    await fanOutAll();
    assert.equal(await store.webhooks.countDeliveries('w2'), 1);
    assert.equal(await store.webhooks.countDeliveries('w4'), 0, 'subscribed to import.completed only');
    assert.equal(await store.compliance.hideComplete(env.accountId, 'missing', event('e4', env, 'import.deleted')), false);
    assert.equal(await store.webhooks.countDeliveries('w2'), 1, 'no event without the deletion');
    assert.equal(await store.webhooks.deleteEndpoint({ accountId: env.accountId, environmentId: staging.environmentId }, 'w2'), false);
    assert.equal(await store.webhooks.deleteEndpoint({ accountId: env.accountId, environmentId: env.environmentId }, 'w2'), true);
  });

  it('erases the events about a deleted import or end-user, and prunes events by age', async () => {
    const events = async () => (await h.sql<{ id: string }>('SELECT id FROM webhook_events ORDER BY id')).map((row) => row.id);
    await store.webhooks.insertEndpoint({ ...endpoint('w5', env, ['import.completed', 'import.deleted', 'end_user.deleted']) }, caps(10));
    await store.imports.insert({ ...writingImport('i3'), endUserId: 'ada' });
    const about = { importId: 'i3', endUserId: 'ada' };
    await store.imports.complete('i3', 'writer', { rowCount: 0, cellStats: '{}', createdAt: at, updatedAt: at }, { ...event('e5', env), ...about });
    await store.imports.insert({ ...writingImport('i4'), endUserId: 'bob' });
    await store.imports.complete('i4', 'writer', { rowCount: 0, cellStats: '{}', createdAt: at, updatedAt: at }, { ...event('e6', env), importId: 'i4', endUserId: 'bob' });
    assert.ok((await events()).includes('e5') && (await events()).includes('e6'));
    await store.compliance.hideComplete(env.accountId, 'i4', { ...event('e7', env, 'import.deleted'), importId: 'i4', endUserId: 'bob' });
    assert.ok(!(await events()).includes('e6') && (await events()).includes('e7'));
    await store.compliance.hideEndUser(env.accountId, 'ada', { ...event('e8', null, 'end_user.deleted'), endUserId: 'ada' });
    assert.ok(!(await events()).includes('e5') && (await events()).includes('e8'));
    await store.compliance.hideEndUser(env.accountId, 'bob');
    assert.ok(!(await events()).includes('e7'), "the end-user's import.deleted goes too");
    assert.equal(await store.webhooks.pruneEvents(later(1), 1), 1);
    const left = (await events()).length;
    assert.equal(await store.webhooks.pruneEvents(at, 100), 0, 'none created before the cutoff');
    assert.equal(await store.webhooks.pruneEvents(later(1), 100), left);
    assert.deepEqual(await events(), []);
  });

  it('claims endpoint by endpoint: at most perEndpoint of each counting those in flight, oldest due first, up to the limit', async () => {
    await store.webhooks.insertEndpoint(endpoint('w6', staging), caps(10));
    for (const [i, id] of ['ea', 'eb', 'ec'].entries()) {
      await store.imports.insert({ ...writingImport(`i-${id}`), environmentId: staging.environmentId });
      const values = { rowCount: 0, cellStats: '{}', createdAt: at, updatedAt: at };
      await store.imports.complete(`i-${id}`, 'writer', values, { ...event(id, staging), createdAt: later(i + 1) });
    }
    await fanOutAll();
    const pairs = (claimed: { endpointId: string; eventId: string }[]) => claimed.map((d) => `${d.endpointId}:${d.eventId}`).sort();
    // A lease that has expired by the claims below: only the limit is looked at.
    assert.equal((await store.webhooks.claimDue(claim(later(1), 'node-z', later(1), 1, 2))).length, 1);
    assert.deepEqual(pairs(await store.webhooks.claimDue(claim(later(10), 'node-a', later(20), 10, 2))), ['w4:ea', 'w4:eb', 'w6:ea', 'w6:eb']);
    assert.deepEqual(pairs(await store.webhooks.claimDue(claim(later(10), 'node-a', later(20), 10, 2, { w4: 2 }))), ['w6:ec'], 'w4 is at its cap');
    assert.deepEqual(pairs(await store.webhooks.claimDue(claim(later(10), 'node-a', later(20), 10, 2, { w4: 1 }))), ['w4:ec'], 'w4 has room for one');
    assert.deepEqual(await store.webhooks.claimDue(claim(later(10), 'node-a', later(20), 10, 2)), []);
  });

  it('claims at most perAccount of one account across its endpoints, counting those in flight, oldest due first', async () => {
    // w4 and w6 (staging) get each of these three events: six deliveries of one account (the test before's are
    // leased until later(20)).
    for (const [i, id] of ['ef', 'eg', 'eh'].entries()) {
      await store.imports.insert({ ...writingImport(`i-${id}`), environmentId: staging.environmentId });
      const values = { rowCount: 0, cellStats: '{}', createdAt: at, updatedAt: at };
      await store.imports.complete(`i-${id}`, 'writer', values, { ...event(id, staging), createdAt: later(11 + i) });
    }
    await fanOutAll();
    const events = (claimed: { eventId: string }[]) => claimed.map((d) => d.eventId).sort();
    const first = await store.webhooks.claimDue(claim(later(15), 'node-a', later(30), 10, 4, {}, 3));
    assert.equal(first.length, 3);
    assert.deepEqual(events(first).slice(0, 2), ['ef', 'ef'], 'the oldest first');
    assert.deepEqual(await store.webhooks.claimDue(claim(later(15), 'node-a', later(30), 10, 4, {}, 4, { [env.accountId]: 4 })), [], 'the account is at its cap');
    assert.equal((await store.webhooks.claimDue(claim(later(15), 'node-a', later(30), 10, 4, {}, 4, { [env.accountId]: 3 }))).length, 1);
    assert.equal((await store.webhooks.claimDue(claim(later(15), 'node-a', later(30), 10, 4, {}, 10, { 'another-account': 10 }))).length, 2, "another account's attempts do not count");
  });

  it("counts against an account's cap only the deliveries its endpoints' caps let through", async () => {
    for (const [i, id] of ['ei', 'ej'].entries()) {
      await store.imports.insert({ ...writingImport(`i-${id}`), environmentId: staging.environmentId });
      const values = { rowCount: 0, cellStats: '{}', createdAt: at, updatedAt: at };
      await store.imports.complete(`i-${id}`, 'writer', values, { ...event(id, staging), createdAt: later(14 + i) });
    }
    await fanOutAll();
    const claimed = await store.webhooks.claimDue(claim(later(16), 'node-a', later(30), 10, 4, { w4: 4 }, 4, { [env.accountId]: 2 }));
    assert.deepEqual(claimed.map((d) => `${d.endpointId}:${d.eventId}`).sort(), ['w6:ei', 'w6:ej']);
  });

  it('lists the endpoints with pending deliveries in id order, a window at a time', async () => {
    const all = await store.webhooks.pendingEndpoints(null, 100);
    assert.ok(all.includes('w4') && all.includes('w6'), JSON.stringify(all));
    assert.deepEqual(all, [...new Set(all)].sort());
    assert.deepEqual(await store.webhooks.pendingEndpoints(null, 1), all.slice(0, 1));
    assert.deepEqual(await store.webhooks.pendingEndpoints(all[0]!, 100), all.slice(1));
    assert.deepEqual(await store.webhooks.pendingEndpoints(all.at(-1)!, 100), []);
  });

  it('fans an event out in batches of at most `batch` deliveries, to endpoints registered by its time, oldest event of each account in turn', async () => {
    const fanned = async () => (await h.sql<{ id: string }>(`SELECT id FROM webhook_events WHERE fanout_pending = ${h.engine === 'postgres' ? 'true' : '1'}`)).map((row) => row.id);
    const wide = ['end_user.deleted'];
    for (const id of ['f1', 'f2', 'f3', 'f4', 'f5']) await store.webhooks.insertEndpoint(endpoint(id, id < 'f3' ? env : staging, wide), caps(10));
    await store.webhooks.insertEndpoint(endpoint('g1', other, wide), caps(10));
    await store.imports.insert({ ...writingImport('i-f'), endUserId: 'erased' });
    await store.compliance.hideEndUser(env.accountId, 'erased', { ...event('ef1', null, 'end_user.deleted'), endUserId: 'erased', createdAt: later(1) });
    await store.imports.insert({ ...writingImport('i-f2'), endUserId: 'erased-2' });
    await store.compliance.hideEndUser(env.accountId, 'erased-2', { ...event('ef2', null, 'end_user.deleted'), endUserId: 'erased-2', createdAt: later(1) });
    // Registered after the events: never hears of them.
    await store.webhooks.insertEndpoint({ ...endpoint('f6', env, wide), createdAt: later(2) }, caps(10));
    await store.imports.insert({ ...writingImport('i-g'), accountId: other.accountId, environmentId: other.environmentId, templateId: await otherTemplate(), endUserId: 'g' });
    await store.compliance.hideEndUser(other.accountId, 'g', { ...event('eg1', null, 'end_user.deleted'), accountId: other.accountId, endUserId: 'g', createdAt: later(1) });
    assert.deepEqual((await fanned()).sort(), ['ef1', 'ef2', 'eg1'], 'written once each, no delivery yet');
    const deliveriesOf = async (eventId: string) => (await h.sql<{ n: number }>(`SELECT count(*) AS n FROM webhook_deliveries WHERE event_id = '${eventId}'`))[0]!.n;

    // One event per account per call: the account with two waiting events does not hold the other's back.
    const first = await store.webhooks.fanOut(null, 10, 2);
    assert.deepEqual([...first.accounts].sort(), [env.accountId, other.accountId].sort());
    assert.equal(first.created, 3, 'two of ef1 (the batch), one of eg1');
    assert.deepEqual([Number(await deliveriesOf('ef1')), Number(await deliveriesOf('ef2')), Number(await deliveriesOf('eg1'))], [2, 0, 1]);
    assert.deepEqual((await fanned()).sort(), ['ef1', 'ef2']);
    // Accounts after the one given only (the sender goes round them).
    assert.deepEqual((await store.webhooks.fanOut(null, 1, 2)).accounts, [env.accountId]);
    assert.deepEqual((await store.webhooks.fanOut(env.accountId, 1, 2)).accounts, []);
    await fanOutAll();
    assert.deepEqual(await fanned(), []);
    assert.deepEqual([Number(await deliveriesOf('ef1')), Number(await deliveriesOf('ef2'))], [6, 6], 'f1-f5 and w5, not f6 (registered after)');
  });

  async function otherTemplate(): Promise<string> {
    await store.templates.insertIfKeyFree({ id: 't-other', accountId: other.accountId, key: 'k', schema: '{}', source: 'studio', metadata: '{}', createdAt: at, updatedAt: at });
    return 't-other';
  }
});
