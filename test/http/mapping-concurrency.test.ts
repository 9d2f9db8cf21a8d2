import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ServiceError } from '../../src/services/errors';
import { runInSlices, type Steps } from '../../src/services/mapping/steps';
import { MappingWorkLimiter } from '../../src/services/mapping/work-limiter';
import { json } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';

const WORDS = ['customer', 'email', 'address', 'phone', 'number', 'first', 'name', 'last', 'city', 'country', 'zip', 'order', 'total', 'amount', 'date', 'created', 'status', 'company', 'notes', 'region'];
const label = (i: number) => Array.from({ length: 10 }, (_, j) => WORDS[(i * 7 + j * 3) % WORDS.length] + (j % 3 ? '' : String(i))).join(' ');
const side = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => ({ key: `${prefix}${i}`, label: label(i) }));

/** A computation of `count` steps, each taking at least `stepMs`. */
function* busySteps(count: number, stepMs: number): Steps<number> {
  for (let i = 0; i < count; i++) {
    const end = performance.now() + stepMs;
    while (performance.now() < end);
    yield;
  }
  return count;
}

describe('MappingWorkLimiter', () => {
  it('runs `concurrency` calls, queues 8 times as many, and refuses the next with rate_limited and a Retry-After', async () => {
    const limiter = new MappingWorkLimiter(1);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const started: number[] = [];
    const calls = Array.from({ length: 9 }, (_, i) => limiter.run(async () => {
      started.push(i);
      await gate;
      return i;
    }));
    await new Promise(setImmediate);
    assert.deepEqual(started, [0]);
    assert.throws(
      () => limiter.run(async () => 'late'),
      (error: unknown) => error instanceof ServiceError && error.code === 'rate_limited' && error.retryAfterSeconds === 8,
    );
    release();
    assert.deepEqual(await Promise.all(calls), [0, 1, 2, 3, 4, 5, 6, 7, 8]);
    assert.equal(await limiter.run(async () => 'again'), 'again');
  });
});

describe('runInSlices with a limiter', () => {
  const refusing = { run: () => Promise.reject(new Error('the limiter was asked')) };

  it('finishes work that fits in its first slice without asking the limiter', async () => {
    assert.equal(await runInSlices(busySteps(3, 0), { limiter: refusing }), 3);
  });

  it('sends work longer than a slice through the limiter', async () => {
    await assert.rejects(runInSlices(busySteps(5, 5), { sliceMs: 2, limiter: refusing }), /the limiter was asked/);
    let asked = 0;
    const counting = { run: <R>(work: () => Promise<R>) => (asked++, work()) };
    assert.equal(await runInSlices(busySteps(5, 5), { sliceMs: 2, limiter: counting }), 5);
    assert.equal(asked, 1);
  });

  it('goes through the limiter only from the slice after which `queued` holds', async () => {
    let slices = 0;
    let askedAt = -1;
    const counting = { run: <R>(work: () => Promise<R>) => ((askedAt = slices), work()) };
    // Each step is a slice of its own; the call proves large after its third.
    const steps = (function* () {
      for (let i = 0; i < 6; i++) {
        slices++;
        const end = performance.now() + 3;
        while (performance.now() < end);
        yield;
      }
      return 'done';
    })();
    assert.equal(await runInSlices(steps, { sliceMs: 1, limiter: counting, queued: () => slices >= 3 }), 'done');
    assert.equal(askedAt, 3);
    assert.equal(await runInSlices(busySteps(5, 5), { sliceMs: 2, limiter: refusing, queued: () => false }), 5);
  });
});

describe('POST /v1/intelligence/map-headers: long calls in flight are bounded per process', () => {
  const { h, env } = useHarness({ config: { IMPORTD_MAP_HEADERS_CONCURRENCY: '1', IMPORTD_RATE_LIMIT: '0' } });

  const mapHeaders = (body: unknown) =>
    h.app.request('/v1/intelligence/map-headers', {
      method: 'POST',
      headers: { 'X-Public-Key': env.publicKey, Origin: env.origin, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('answers 429 rate_limited with Retry-After to long calls past 1 working + 8 waiting, while a small call still answers', async () => {
    const heavy = { schemaHeaders: side('s', 150), fileHeaders: side('f', 150) };
    const calls = Array.from({ length: 14 }, () => mapHeaders(heavy));
    const small = await mapHeaders({ schemaHeaders: [{ key: 'email', label: 'Email' }], fileHeaders: [{ key: 'c0', label: 'E-mail address' }] });
    assert.equal(small.status, 200);
    assert.equal((await json(small)).email.fileKey, 'c0');
    // 50 x 50 labels of ten words each: an importer's largest ordinary call, cheap enough never to wait.
    const ordinary = await mapHeaders({ schemaHeaders: side('s', 50), fileHeaders: side('f', 50) });
    assert.equal(ordinary.status, 200);
    const responses = await Promise.all(calls);
    const statuses = responses.map((r) => r.status);
    assert.ok(statuses.every((s) => s === 200 || s === 429), statuses.join());
    const refused = responses.filter((r) => r.status === 429);
    assert.ok(refused.length >= 1 && refused.length <= 5, statuses.join());
    for (const response of refused) {
      assert.equal((await json(response)).error.code, 'rate_limited');
      assert.match(response.headers.get('Retry-After') ?? '', /^\d+$/);
      assert.equal(response.headers.get('Access-Control-Allow-Origin'), env.origin);
    }
    const answered = responses.filter((r) => r.status === 200);
    assert.ok(answered.length >= 9, statuses.join());
    const first = await json(answered[0]!);
    for (const response of answered.slice(1)) assert.deepEqual(await json(response), first);
  });
});

describe('POST /v1/intelligence/map-headers: a call is small by its cost, not by its headers count', () => {
  const { h, env } = useHarness({ config: { IMPORTD_MAP_HEADERS_CONCURRENCY: '1', IMPORTD_RATE_LIMIT: '0' } });

  it('queues 50 x 50 calls of costly labels like any long call', async () => {
    // Ten words no vocabulary knows per label: each is compared by characters with every word of every other label.
    let seed = 1;
    const letter = () => String.fromCharCode(97 + ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % 26));
    const junk = (prefix: string) =>
      Array.from({ length: 50 }, (_, i) => ({ key: `${prefix}${i}`, label: Array.from({ length: 10 }, () => Array.from({ length: 8 }, letter).join('')).join(' ') }));
    const body = JSON.stringify({ schemaHeaders: junk('s'), fileHeaders: junk('f') });
    const calls = Array.from({ length: 12 }, () =>
      h.app.request('/v1/intelligence/map-headers', {
        method: 'POST',
        headers: { 'X-Public-Key': env.publicKey, Origin: env.origin, 'Content-Type': 'application/json' },
        body,
      }),
    );
    const statuses = (await Promise.all(calls)).map((r) => r.status);
    assert.ok(statuses.includes(429), statuses.join());
    assert.ok(statuses.every((s) => s === 200 || s === 429), statuses.join());
  });
});
