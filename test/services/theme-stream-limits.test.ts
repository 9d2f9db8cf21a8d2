import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { authenticateKey } from '../../src/services/auth';
import { ServiceError } from '../../src/services/errors';
import { openThemeStream, setTheme, type Theme } from '../../src/services/themes';
import { MAX_STREAMS, MAX_STREAMS_PER_ACCOUNT, RESERVED_FOR_FIRST_STREAMS, ThemeEvents, type ThemeSubscription } from '../../src/services/themes/theme-events';
import { validTheme } from '../helpers/fixtures';
import { sharedChannel } from '../helpers/notices';
import { useHarness } from '../helpers/use-harness';

// Issue 41: one account cannot take every theme stream of the process, nor stall it with a theme change.

const refusedFor = (pattern: RegExp) => (error: unknown) => error instanceof ServiceError && error.code === 'rate_limited' && pattern.test(error.message);

/** Opens streams of the account, through `keys` keys in turn (at most 50 each), until one is refused; answers how many opened. */
async function fill(hub: ThemeEvents, accountId: string, keys: number, opened: ThemeSubscription[]): Promise<number> {
  for (let i = 0; ; i++) {
    try {
      opened.push(await hub.subscribe(accountId, `${accountId}-key-${i % keys}`));
    } catch (error) {
      if (error instanceof ServiceError && error.code === 'rate_limited') return i;
      throw error;
    }
  }
}

describe('theme streams per account', () => {
  const theme = validTheme() as Theme;
  const hub = () => new ThemeEvents(async () => theme, sharedChannel());

  it(`caps an account at ${MAX_STREAMS_PER_ACCOUNT} streams whatever keys they come through (rolled keys, several environments)`, async () => {
    const events = hub();
    const opened: ThemeSubscription[] = [];
    assert.equal(await fill(events, 'acct', 10, opened), MAX_STREAMS_PER_ACCOUNT);
    await assert.rejects(events.subscribe('acct', 'acct-fresh-key'), refusedFor(/per account/));
    opened.push(await events.subscribe('another', 'another-key'));
    opened[0]!.close();
    opened.push(await events.subscribe('acct', 'acct-key-0'));
    events.closeAll();
  });

  it("keeps process slots for first streams: accounts at their cap cannot make another account's first stream fail", async () => {
    const events = hub();
    const opened: ThemeSubscription[] = [];
    let total = 0;
    for (let a = 0; total < MAX_STREAMS; a++) {
      const got = await fill(events, `busy-${a}`, 10, opened);
      total += got;
      if (got < MAX_STREAMS_PER_ACCOUNT) break;
    }
    assert.equal(events.openStreams, MAX_STREAMS - RESERVED_FOR_FIRST_STREAMS);
    opened.push(await events.subscribe('late', 'late-key'));
    await assert.rejects(events.subscribe('late', 'late-key'), refusedFor(/on this server/), 'only first streams use the reserve');
    events.closeAll();
  });

  it('wakes the streams of a theme change in slices, the event loop turning between them', async () => {
    const stored = { theme: validTheme({ name: 'Before' }) as Theme };
    const channel = sharedChannel();
    const hubWithStore = new ThemeEvents(async () => stored.theme, channel);
    const streams: ThemeSubscription[] = [];
    await fill(hubWithStore, 'acct', 10, streams);
    for (const stream of streams) stream.take();
    let turns = 0;
    let counting = true;
    const count = () => {
      turns += 1;
      if (counting) setImmediate(count);
    };
    const wokeAt: number[] = [];
    const woken = Promise.all(streams.map((stream) => stream.wait(60_000).then((reason) => (assert.equal(reason, 'changed'), wokeAt.push(turns)))));
    stored.theme = validTheme({ name: 'After' }) as Theme;
    setImmediate(count);
    await channel.publish('theme', 'acct');
    await woken;
    counting = false;
    assert.ok(new Set(wokeAt).size >= streams.length / 50, `${streams.length} streams woke over ${new Set(wokeAt).size} turns of the event loop`);
    hubWithStore.closeAll();
  });
});

describe('theme streams: changes in a loop', () => {
  it('folds notices that come within NOTICE_GAP_MS into one re-read, the streams getting the latest theme', async () => {
    const channel = sharedChannel();
    let current = validTheme({ name: 'v0' }) as Theme;
    let reads = 0;
    const events = new ThemeEvents(async () => (reads++, current), channel);
    const stream = await events.subscribe('acct', 'key');
    stream.take();
    const before = reads;
    for (let i = 1; i <= 10; i++) {
      current = validTheme({ name: `v${i}` }) as Theme;
      await channel.publish('theme', 'acct');
    }
    assert.equal(await stream.wait(60_000), 'changed');
    // The first notice re-reads at once; the nine after it wait for one re-read at the end of the gap.
    while (reads - before < 2) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(reads - before, 2, `${reads - before} re-reads for 10 notices`);
    assert.equal(stream.take()?.name, 'v10');
    events.closeAll();
  });
});

describe('theme streams: one key check per key and origin on a theme change, not one per stream', () => {
  const { h, env } = useHarness();

  it('re-checks a key once for all its streams woken together', async () => {
    const caller = { principal: await authenticateKey(h.ctx, env.secretKey) };
    const streams = await Promise.all(Array.from({ length: 20 }, () => openThemeStream(h.ctx, caller, env.secretKey, undefined)));
    const environments = h.ctx.store.environments;
    const findKeyByHash = environments.findKeyByHash;
    let reads = 0;
    environments.findKeyByHash = (hash) => {
      reads += 1;
      return findKeyByHash.call(environments, hash);
    };
    try {
      const woken = Promise.all(streams.map((stream) => stream.wait(60_000)));
      await setTheme(h.ctx, env.accountId, validTheme({ name: 'Changed' }) as never);
      assert.deepEqual(new Set(await woken), new Set(['changed']));
      assert.equal(reads, 1, `${reads} key reads for ${streams.length} streams`);
    } finally {
      environments.findKeyByHash = findKeyByHash;
      for (const stream of streams) stream.close();
    }
  });
});
