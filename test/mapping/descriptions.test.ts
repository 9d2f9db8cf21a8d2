import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeHeader } from '../../src/services/mapping/concepts';
import { cosine, termVectors } from '../../src/services/mapping/descriptions';

const doc = (text: string) => analyzeHeader(text).units;

describe('termVectors and cosine', () => {
  it('weighs a word by how few of the call\'s documents hold it', () => {
    const [a, b, c, none] = termVectors([doc('patient discharge location'), doc('patient discharge ward'), doc('patient weight'), null]);
    assert.equal(none, null);
    // a and b share "discharge" (in two documents) and "patient" (in all three, weighing least).
    assert.ok(cosine(a!, b!) > cosine(a!, c!));
    assert.ok(cosine(a!, c!) > 0);
    assert.equal(cosine(a!, a!).toFixed(6), '1.000000');
  });

  it('is 0 for documents without a common word', () => {
    const [a, b] = termVectors([doc('loyalty level'), doc('invoice total')]);
    assert.equal(cosine(a!, b!), 0);
  });
});
