import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { disjointValues, inferSamplesKind, inferValueKind, kindCompatibility, sampleOverlap, valueSpread, valueWords } from '../../src/services/mapping/samples';

describe('inferValueKind', () => {
  const cases: [string, string][] = [
    ['jane.doe@example.com', 'email'], ['https://example.com/a', 'url'], ['+49 30 1234567', 'phone'], ['2024-01-31', 'date'],
    ['31.01.2024', 'date'], ['2024-01-31 12:00', 'datetime'], ['42', 'integer'], ['4.5', 'decimal'], ['€12.50', 'money'],
    ['15%', 'percent'], ['yes', 'boolean'], ['DE', 'country'], ['EUR', 'currency'], ['DE89370400440532013000', 'iban'],
    ['4006381333931', 'gtin'], ['550e8400-e29b-41d4-a716-446655440000', 'uuid'], ['SW1A 1AA', 'postal'], ['Jane', 'text'],
  ];
  for (const [value, kind] of cases) it(`${value} is ${kind}`, () => assert.equal(inferValueKind(value), kind));
});

describe('inferSamplesKind', () => {
  it('takes the dominant kind and widens mixed numbers', () => {
    assert.equal(inferSamplesKind(['a@b.io', 'c@d.io', 'e@f.io']), 'email');
    assert.equal(inferSamplesKind(['1', '2.5', '3']), 'decimal');
    assert.equal(inferSamplesKind([]), null);
    assert.equal(inferSamplesKind(undefined), null);
  });

  it('leaves missing-value markers out: "Yes, No, Unknown" is a flag', () => {
    assert.equal(inferSamplesKind(['Yes', 'No', 'Unknown']), 'boolean');
    assert.equal(inferSamplesKind(['12', 'Not reported', '7', 'N/A']), 'integer');
    assert.equal(inferSamplesKind(['Unknown', 'n/a']), null);
  });
});

describe('kindCompatibility and sampleOverlap', () => {
  it('scores same kinds 1, clashes 0 and free text next to typed data low', () => {
    assert.equal(kindCompatibility('email', 'email'), 1);
    assert.equal(kindCompatibility('email', 'date'), 0);
    assert.ok(kindCompatibility('integer', 'decimal') > 0.5);
    assert.ok(kindCompatibility('text', 'email') < 0.3);
  });
  it('measures shared values, each weighted by how few headers of one list carry it', () => {
    const a = new Set(['a', 'b']);
    const b = new Set(['b', 'c', 'd']);
    assert.equal(sampleOverlap(a, b, valueSpread([a], [b])), 0.5);
    // "b" also under two other file headers: a third of its weight.
    const spread = valueSpread([a], [b, new Set(['b']), new Set(['b', 'e'])]);
    assert.equal(spread.get('b'), 3);
    assert.equal(sampleOverlap(a, b, spread), 0.5 / 3);
    assert.equal(sampleOverlap(new Set(), new Set(['a']), spread), 0);
  });

  it('finds text columns, or a text column and a flag, with several values and no word in common', () => {
    const col = (kind: 'text' | 'integer' | 'boolean', ...values: string[]) => ({ kind, values: new Set(values), words: valueWords(values, 24) });
    assert.deepEqual([...valueWords(['stage iia', 'stage ib'], 24)], ['stage', 'iia', 'ib']);
    assert.deepEqual([...valueWords(['a b', 'b c d', 'e'], 3)], ['a', 'b', 'c']);
    assert.equal(disjointValues(col('text', 'uploading', 'uploaded'), col('text', 'asian', 'western')), true);
    assert.equal(disjointValues(col('text', 'stage iia', 'stage ib'), col('text', 'stage iv', 'n/a')), false);
    assert.equal(disjointValues(col('text', 'jane'), col('text', 'lucía', 'javier')), false);
    assert.equal(disjointValues(col('integer', '1', '2'), col('text', 'a', 'b')), false);
    assert.equal(disjointValues(col('text', 'extramural', 'intramural'), col('boolean', 'yes', 'no')), true);
    // Two flags are the same kind of data in any words.
    assert.equal(disjointValues(col('boolean', 'yes', 'no'), col('boolean', 'true', 'false')), false);
  });
});
