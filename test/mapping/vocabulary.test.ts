import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { termKey, vocabulary } from '../../src/services/mapping/concepts';

const LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'pt', 'nl'] as const;

describe('vocabulary.json', () => {
  it('is valid JSON that the loader accepts', () => {
    const raw = JSON.parse(readFileSync(new URL('../../src/services/mapping/vocabulary.json', import.meta.url), 'utf8'));
    assert.equal(raw.version, 1);
    assert.ok(vocabulary.concepts.length > 100, 'covers the common importer concepts');
  });

  it('gives every group an id and terms in each language', () => {
    const ids = new Set<string>();
    for (const group of [...vocabulary.concepts, ...vocabulary.qualifiers]) {
      assert.ok(!ids.has(group.id), `duplicate id ${group.id}`);
      ids.add(group.id);
      for (const lang of LANGUAGES) assert.ok(group.terms[lang].length > 0, `${group.id} has no ${lang} term`);
    }
  });

  it('puts no normalised term in two groups and no term that normalises to nothing', () => {
    const owner = new Map<string, string>();
    const problems: string[] = [];
    for (const group of [...vocabulary.concepts, ...vocabulary.qualifiers]) {
      for (const term of new Set(Object.values(group.terms).flat())) {
        const key = termKey(term);
        if (key === '') problems.push(`${group.id}: "${term}" normalises to nothing`);
        const other = owner.get(key);
        if (other !== undefined && other !== group.id) problems.push(`"${term}" is in ${other} and ${group.id}`);
        owner.set(key, group.id);
      }
    }
    assert.deepEqual(problems, []);
  });

  it('relates only known concepts and expands every abbreviation to words', () => {
    const ids = new Set(vocabulary.concepts.map((c) => c.id));
    for (const [a, b] of vocabulary.related) assert.ok(ids.has(a) && ids.has(b), `${a} ~ ${b}`);
    for (const [abbr, expansion] of Object.entries(vocabulary.abbreviations))
      assert.ok(termKey(expansion).length > 0, `${abbr} -> "${expansion}"`);
  });
});
