import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newRequestId } from '../../src/core/ids';

describe('request ids', () => {
  it('are req_ + 16 base64url characters and unique across refills of the random pool', () => {
    const ids = Array.from({ length: 1000 }, () => newRequestId());
    for (const id of ids) assert.match(id, /^req_[\w-]{16}$/);
    assert.equal(new Set(ids).size, ids.length);
  });
});
