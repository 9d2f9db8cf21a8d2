import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hashesEqual, hashKey } from '../../src/core/keys';
import { authenticateKey } from '../../src/services/auth';
import { ServiceError } from '../../src/services/errors';
import { testClock } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';

const clock = testClock();
const { h, env } = useHarness({ clock });

const lastUsed = async () => (await h.ctx.store.environments.findKeyByHash(hashKey(env.secretKey)))!.lastUsedAt;

describe('authenticateKey', () => {
  it('writes lastUsedAt at most once a minute per key', async () => {
    await authenticateKey(h.ctx, env.secretKey);
    const first = await lastUsed();
    assert.equal(first, clock().toISOString());
    clock.advance(59_000);
    await authenticateKey(h.ctx, env.secretKey);
    assert.equal(await lastUsed(), first, 'no write within the minute');
    clock.advance(1_000);
    await authenticateKey(h.ctx, env.secretKey);
    assert.equal(await lastUsed(), clock().toISOString(), 'written again after a minute');
  });

  it('resolves each key to its kind, account and environment', async () => {
    const secret = await authenticateKey(h.ctx, env.secretKey);
    const pub = await authenticateKey(h.ctx, env.publicKey);
    assert.deepEqual([secret.kind, pub.kind], ['secret', 'public']);
    assert.equal(secret.environmentId, env.environmentId);
    assert.equal(pub.accountId, env.accountId);
    assert.deepEqual(pub.allowedOrigins, ['https://app.example.com']);
  });

  it('refuses a key whose prefix claims the other kind', async () => {
    const swapped = `pk_${env.secretKey.slice(3)}`;
    await assert.rejects(async () => await authenticateKey(h.ctx, swapped), (e: unknown) => e instanceof ServiceError && e.code === 'invalid_api_key');
  });

  it('refuses a key with one character changed, wherever it is', async () => {
    for (const key of [env.secretKey, env.publicKey]) {
      for (const at of [3, Math.floor(key.length / 2), key.length - 1]) {
        const changed = `${key.slice(0, at)}${key[at] === 'Z' ? 'Y' : 'Z'}${key.slice(at + 1)}`;
        await assert.rejects(async () => await authenticateKey(h.ctx, changed), (e: unknown) => e instanceof ServiceError && e.code === 'invalid_api_key', changed);
      }
    }
  });

  it('compares digests in constant time and only equal ones match', () => {
    assert.equal(hashesEqual(hashKey('a'), hashKey('a')), true);
    assert.equal(hashesEqual(hashKey('a'), hashKey('b')), false);
    assert.equal(hashesEqual(hashKey('a'), 'abcd'), false);
  });
});
