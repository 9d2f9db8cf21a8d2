import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MapHeadersInput, MapHeadersOutput } from '../../src/services/mapping/schemas';

const ok = { key: 'email', label: 'Email' };

describe('MapHeadersInput', () => {
  const bad: [string, unknown, string][] = [
    ['missing schemaHeaders', { fileHeaders: [] }, 'schemaHeaders'],
    ['missing fileHeaders', { schemaHeaders: [] }, 'fileHeaders'],
    ['non-array headers', { schemaHeaders: {}, fileHeaders: [] }, 'schemaHeaders'],
    ['non-string label', { schemaHeaders: [{ key: 'a', label: 3 }], fileHeaders: [] }, 'schemaHeaders.0.label'],
    ['empty key', { schemaHeaders: [], fileHeaders: [{ key: '', label: 'x' }] }, 'fileHeaders.0.key'],
    ['duplicate schema key', { schemaHeaders: [ok, { key: 'x', label: 'X' }, ok], fileHeaders: [] }, 'schemaHeaders.2.key'],
    ['duplicate file key', { schemaHeaders: [], fileHeaders: [ok, ok] }, 'fileHeaders.1.key'],
    ['too many samples', { schemaHeaders: [{ ...ok, samples: Array(21).fill('a') }], fileHeaders: [] }, 'schemaHeaders.0.samples'],
    ['non-string sample', { schemaHeaders: [{ ...ok, samples: [1] }], fileHeaders: [] }, 'schemaHeaders.0.samples.0'],
    ['long description', { schemaHeaders: [], fileHeaders: [{ ...ok, description: 'x'.repeat(2001) }] }, 'fileHeaders.0.description'],
    ['too many headers', { schemaHeaders: Array.from({ length: 2001 }, (_, i) => ({ key: `k${i}`, label: '' })), fileHeaders: [] }, 'schemaHeaders'],
  ];
  for (const [name, input, path] of bad)
    it(`rejects ${name} at ${path}`, () => {
      const result = MapHeadersInput.safeParse(input);
      assert.equal(result.success, false);
      assert.ok(result.error!.issues.some((i) => i.path.join('.') === path), JSON.stringify(result.error!.issues));
    });

  it('accepts empty lists, empty labels and optional samples and description', () => {
    assert.ok(MapHeadersInput.safeParse({ schemaHeaders: [], fileHeaders: [] }).success);
    const full = { key: 'dob', label: '', samples: ['1990-01-01'], description: 'Date of birth' };
    assert.ok(MapHeadersInput.safeParse({ schemaHeaders: [full], fileHeaders: [ok] }).success);
  });
});

describe('MapHeadersOutput', () => {
  it('is a record of fileKey and confidence in [0, 1]', () => {
    assert.ok(MapHeadersOutput.safeParse({ email: { fileKey: 'E-mail', confidence: 0.9 } }).success);
    assert.equal(MapHeadersOutput.safeParse({ email: { fileKey: 'E-mail', confidence: 1.5 } }).success, false);
  });
});
