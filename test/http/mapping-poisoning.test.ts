import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { learnedTrims } from '../../src/db/store';
import { issueSession } from '../../src/services/sessions/sessions';
import { call, json, testClock, type TestEnvironment } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';
import { postImport } from '../imports/helpers';
import { confirmerOf, templateIdOf } from './learned-helpers';

// One end-user's confirmed mappings must not bend what everyone else is offered (issue 41).
const PATH = '/v1/intelligence/map-headers';
const item = (key: string, label = key) => ({ key, label });
type Answer = Record<string, { fileKey: string; confidence: number; source?: string }>;
const contactHeaders = {
  schemaHeaders: [item('email', 'Email'), item('phone', 'Phone'), item('segment', 'Segment')],
  fileHeaders: [item('c0', 'Email'), item('c1', 'Phone'), item('c2', 'Bucket X7')],
};

describe('learned mappings one end-user cannot bend', () => {
  const clock = testClock();
  const { h, env, second } = useHarness({ clock, environments: { second: { name: 'staging' } } });

  const session = async (endUserId: string, templateKey?: string) => {
    const templateId = templateKey === undefined ? undefined : await templateIdOf(h, env, templateKey);
    return (await issueSession(h.ctx, env, { endUserId, ...(templateId ? { templateId } : {}) })).sessionToken;
  };
  /** An import by an end-user through the Public Key, as the importer sends it. */
  const confirmAs = async (endUserId: string, mapping: Record<string, string>, templateKey = 'contacts') => {
    clock.advance(1);
    const response = await call(h, 'POST', '/v1/imports', {
      key: env.publicKey,
      origin: env.origin,
      session: await session(endUserId, templateKey),
      body: { meta: { mapping }, rows: [{ email: 'a@example.com' }] },
    });
    assert.equal(response.status, 201, await response.clone().text());
  };
  const mapAs = async (as: { key: string; origin?: string; session?: string }, body: Record<string, unknown>, templateKey: string | null = 'contacts') => {
    const templateId = templateKey === null ? undefined : await templateIdOf(h, env, templateKey);
    const response = await call(h, 'POST', PATH, { ...as, body: { ...body, templateId } });
    assert.equal(response.status, 200, await response.clone().text());
    return json<Answer>(response);
  };
  const asSecret = (e: TestEnvironment = env) => ({ key: e.secretKey });
  const countsByConfirmer = async () =>
    Object.fromEntries((await h.sql<{ confirmer: string; n: number }>('SELECT confirmer, count(*) AS n FROM learned_mappings GROUP BY confirmer')).map((r) => [r.confirmer, r.n]));

  it('sets up the templates through the Secret Key', async () => {
    for (const schemaKey of ['contacts', 'orders']) assert.equal((await postImport(h, env, { meta: { schemaKey }, rows: [{ email: 'a@example.com' }] })).status, 201);
  });

  it('never lets a swapped pair from one session outrank an exact-name match, for anyone', async () => {
    const before = await mapAs(asSecret(), contactHeaders);
    assert.deepEqual(before.email, { fileKey: 'c0', confidence: 1 });
    // The attack of the issue: a session bound to another template swaps the two labels.
    await confirmAs('mallory', { email: 'Phone', phone: 'Email' }, 'orders');
    await confirmAs('mallory', { email: 'Phone', phone: 'Email' });
    // Even a Secret Key import of the swap (preferred) never takes a header from its exact-name match.
    assert.equal((await postImport(h, env, { meta: { schemaKey: 'contacts', mapping: { email: 'Phone', phone: 'Email' } }, rows: [{ email: 'a@example.com' }] })).status, 201);
    const publicCaller = { key: env.publicKey, origin: env.origin, session: await session('alice') };
    for (const [caller, templateKey] of [
      [asSecret(), 'contacts'],
      [asSecret(second), 'contacts'],
      [publicCaller, 'contacts'],
      [publicCaller, 'orders'],
      [asSecret(), null],
    ] as const) {
      const answer = await mapAs(caller, contactHeaders, templateKey);
      assert.deepEqual(answer.email, { fileKey: 'c0', confidence: 1 }, String(templateKey));
      assert.deepEqual(answer.phone, { fileKey: 'c1', confidence: 1 }, String(templateKey));
    }
    await h.sql('DELETE FROM learned_mappings');
  });

  it('suggests a pair one end-user confirmed below 0.95, and prefers it once several did', async () => {
    const segment = async () => (await mapAs(asSecret(), contactHeaders)).segment;
    assert.equal(await segment(), undefined);
    await confirmAs('bob', { segment: 'Bucket X7' });
    assert.deepEqual(await segment(), { fileKey: 'c2', confidence: 0.9, source: 'learned' });
    // The same end-user again is still one end-user.
    await confirmAs('bob', { segment: 'bucket x7 ' });
    assert.deepEqual(await segment(), { fileKey: 'c2', confidence: 0.9, source: 'learned' });
    // A second end-user (spelling aside) makes IMPORTD_LEARN_MIN_END_USERS (2).
    await confirmAs('carol', { segment: 'BUCKET X7' });
    assert.deepEqual(await segment(), { fileKey: 'c2', confidence: 0.97, source: 'learned' });
    const listed = await h.sql<{ n: number }>('SELECT count(DISTINCT confirmer) AS n FROM learned_mappings');
    assert.deepEqual(listed, [{ n: 2 }]);
    await h.sql('DELETE FROM learned_mappings');
  });

  it('lets a suggestion fill in only where the matcher is less sure', async () => {
    // mallory's swap of two non-exact labels: the matcher's own pairs (at or above 0.9) stand.
    const headers = { schemaHeaders: [item('email', 'Email address'), item('phone', 'Phone number')], fileHeaders: [item('c0', 'E-mail address'), item('c1', 'Phone no.')] };
    const offline = await mapAs(asSecret(), headers);
    assert.ok(offline.email!.confidence >= 0.9 && offline.phone!.confidence >= 0.9, JSON.stringify(offline));
    await confirmAs('mallory', { email: 'Phone no.', phone: 'E-mail address' });
    assert.deepEqual(await mapAs(asSecret(), headers), offline);
    await h.sql('DELETE FROM learned_mappings');
  });

  it('uses the template a session is bound to, and refuses another', async () => {
    await confirmAs('bob', { segment: 'Bucket X7' });
    const bound = { key: env.publicKey, origin: env.origin, session: await session('dave', 'contacts') };
    assert.equal((await mapAs(bound, contactHeaders, null)).segment?.source, 'learned');
    const refused = await call(h, 'POST', PATH, { ...bound, body: { ...contactHeaders, templateId: await templateIdOf(h, env, 'orders') } });
    assert.equal(refused.status, 403);
    assert.equal((await json(refused)).error.code, 'template_not_allowed');
    await h.sql('DELETE FROM learned_mappings');
  });

  it('forgets what an end-user confirmed when the end-user is erased', async () => {
    await confirmAs('erin', { segment: 'Bucket X7' });
    await confirmAs('frank', { segment: 'Bucket X7' });
    assert.equal((await call(h, 'DELETE', '/v1/end-users/erin', { key: env.secretKey })).status, 200);
    assert.deepEqual(await countsByConfirmer(), { [confirmerOf('frank')]: 1 });
    assert.equal((await mapAs(asSecret(), contactHeaders)).segment?.confidence, 0.9);
    await h.sql('DELETE FROM learned_mappings');
  });

  it("does not let 11 imports of 500 junk pairs push out others' entries", async () => {
    const pairs = (prefix: string, n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${String(i).padStart(3, '0')}`, `Label ${i}`]));
    const others = Array.from({ length: 9 }, (_, i) => `user-${i}`);
    for (const user of others) await confirmAs(user, pairs(`${user}_`, 450));
    assert.equal((await postImport(h, env, { meta: { schemaKey: 'contacts', mapping: pairs('sk_', 400) }, rows: [{ email: 'a@example.com' }] })).status, 201);
    const expected = { ...Object.fromEntries(others.map((u) => [confirmerOf(u), 450])), '': 400 };
    assert.deepEqual(await countsByConfirmer(), expected);
    for (let i = 0; i < 11; i++) await confirmAs('mallory', pairs(`junk${String(i).padStart(2, '0')}_`, 500));
    // mallory keeps her newest 500; nobody else lost one entry.
    assert.deepEqual(await countsByConfirmer(), { ...expected, [confirmerOf('mallory')]: 500 });
    const kept = await h.sql<{ schema_key: string }>("SELECT schema_key FROM learned_mappings WHERE confirmer = ? AND schema_key < 'junk10_'", confirmerOf('mallory'));
    assert.deepEqual(kept, []);
    // Past the template's 5 000, the largest confirmer (mallory) is trimmed first: 50 of hers, none of the others'.
    await confirmAs('newcomer', pairs('new_', 100));
    assert.deepEqual(await countsByConfirmer(), { ...expected, [confirmerOf('mallory')]: 450, [confirmerOf('newcomer')]: 100 });
    // Nor another template's: entries are counted per template.
    await confirmAs('mallory', pairs('orders_', 500), 'orders');
    assert.deepEqual((await countsByConfirmer())[confirmerOf('mallory')], 950);
    await h.sql('DELETE FROM learned_mappings');
  });
});

describe('learnedTrims', () => {
  const cases: [string, [string, number][], number, [string, number][]][] = [
    ['the largest alone', [['a', 500], ['b', 450], ['c', 100]], 50, [['a', 450]]],
    ['levelled down together', [['a', 500], ['b', 450], ['c', 450], ['d', 300]], 300, [['a', 366], ['b', 367], ['c', 367]]],
    ['ties by confirmer', [['b', 2], ['a', 2]], 1, [['a', 1]]],
    ['down to nothing for one', [['a', 1], ['b', 1]], 1, [['a', 0]]],
    ['nothing to trim', [['a', 3]], 0, []],
  ];
  for (const [name, counts, excess, expected] of cases) {
    it(name, () => {
      const trims = learnedTrims(counts.map(([confirmer, entries]) => ({ confirmer, entries })), excess);
      assert.deepEqual(trims.map((t) => [t.confirmer, t.keep]), expected);
      const removed = trims.reduce((sum, t) => sum + counts.find(([c]) => c === t.confirmer)![1] - t.keep, 0);
      assert.equal(removed, excess);
    });
  }
});
