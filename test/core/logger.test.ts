import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { batchedLines, createLogger } from '../../src/core/logger';

describe('batchedLines', () => {
  it('writes the lines of one turn of the event loop at once after it, in order, and nothing before', async () => {
    const writes: string[] = [];
    const logger = createLogger('info', batchedLines((text) => writes.push(text)));
    logger.info('one', { n: 1 });
    logger.warn('two');
    logger.error('three');
    assert.equal(writes.length, 0, 'written during the turn');
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(writes.length, 1);
    assert.deepEqual(writes[0]!.split('\n').slice(0, -1).map((line) => JSON.parse(line).msg), ['one', 'two', 'three']);
    logger.info('four');
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(writes.length, 2);
    assert.equal(JSON.parse(writes[1]!).msg, 'four');
  });
});
