import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pullStream } from '../../src/http/stream';

// The export's byte stream: pulled as the client reads, and dropped when the client stops reading.
describe('pullStream', () => {
  const source = (count: number) => {
    const state = { produced: 0, finished: false };
    async function* pieces() {
      try {
        while (state.produced < count) yield { data: `piece ${state.produced++}\n`, rows: 1 };
      } finally {
        state.finished = true;
      }
    }
    return { state, pieces: pieces() };
  };

  it('produces only one piece ahead of its reader, and every piece once read', async () => {
    const { state, pieces } = source(10);
    const reader = pullStream(pieces, { stalledAfterMs: 1000 }).getReader();
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(state.produced, 1);
    let text = '';
    for (let next = await reader.read(); !next.done; next = await reader.read()) text += Buffer.from(next.value).toString();
    assert.equal(text.split('\n').length, 11);
    assert.equal(state.finished, true);
  });

  it('errors and stops its producer when the reader takes nothing for the stall time', async () => {
    const { state, pieces } = source(10);
    const reader = pullStream(pieces, { stalledAfterMs: 50 }).getReader();
    await reader.read();
    await new Promise((resolve) => setTimeout(resolve, 150));
    await assert.rejects(async () => {
      for (let next = await reader.read(); !next.done; next = await reader.read());
    }, /read nothing for 50 ms/);
    assert.equal(state.finished, true);
    assert.ok(state.produced < 10);
  });

  it('tells its writer, which waits on the client, to drop it', async () => {
    const { state, pieces } = source(10);
    let dropped = 0;
    const reader = pullStream(pieces, { stalledAfterMs: 50, stalled: () => dropped++ }).getReader();
    await reader.read();
    await new Promise((resolve) => setTimeout(resolve, 150));
    assert.equal(dropped, 1);
    assert.equal(state.finished, true);
    await reader.cancel();
  });
});
