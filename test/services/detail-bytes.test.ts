import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ImportDetailRow } from '../../src/db/store';
import { detailBytes, detailJson } from '../../src/services/imports/views';

const view = (meta: object): ImportDetailRow => ({
  id: '01a223ff-2837-7baa-a5f9-3c52fae5d5af',
  templateId: '01a223ff-2832-7811-94b3-49314e02f9be',
  meta: JSON.stringify(meta),
  file: null,
  endUserId: 'user "1"',
  endUserEmail: null,
  endUserIp: null,
  importedFrom: 'api',
  sessionJti: null,
  rowCount: 2,
  cellStats: '{"totalCells":4,"rowCount":2,"fieldBreakdown":[]}',
  createdAt: '2026-11-28T21:10:54.633Z',
  updatedAt: '2026-11-28T21:10:54.633Z',
});

const text = (pieces: readonly Uint8Array[]) => Buffer.concat(pieces).toString('utf8');

describe('the detail rendered as bytes (the fast lane answers a detail read with them)', () => {
  it('holds the detail JSON in UTF-8, rendered once per view object and separately for another', () => {
    const first = view({ note: 'café ✓' });
    const body = detailBytes(first);
    assert.equal(text(body), detailJson(first));
    assert.deepEqual(JSON.parse(text(body)).meta, { note: 'café ✓' });
    assert.equal(detailBytes(first), body, 'the same view object: the same bytes, not rendered again');

    // A commit makes the read cache hand out a new view object: rendered from it, never from the old one.
    const changed = view({ note: 'changed' });
    assert.notEqual(detailBytes(changed), body);
    assert.deepEqual(JSON.parse(text(detailBytes(changed))).meta, { note: 'changed' });
  });
});
