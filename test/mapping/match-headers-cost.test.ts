import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { matchHeaders, matchHeaderSteps } from '../../src/services/mapping/match-headers';
import type { HeaderItem, MapHeadersInput } from '../../src/services/mapping/schemas';
import { tokenSimilarity } from '../../src/services/mapping/similarity';

// What a call costs is bounded before it is paid, whatever its text: inputs shaped to make one step long.
let seed = 11;
const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
const word = (alphabet: string, length: number) => Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
const headers = (prefix: string, labels: string[], extra: Partial<HeaderItem> = {}): HeaderItem[] =>
  labels.map((label, i) => ({ key: `${prefix}${i}`, label, ...extra }));

/** The pairwise cost the matcher computes once the headers are analysed (undefined when refused before). */
function costOf(input: MapHeadersInput, budget = Number.POSITIVE_INFINITY): number | undefined {
  let cost: number | undefined;
  try {
    matchHeaders(input, { budget, onCost: (c) => (cost = c) });
  } catch {
    return cost;
  }
  return cost;
}

describe('matchHeaders: cost bounded before it is paid', () => {
  it('compares long unknown words by their characters linearly, and charges them by length', () => {
    const base = 'abcdefghij'.repeat(4);
    // One edit apart stays a typo at any length; a near miss past MAX_FUZZY_CHARS is no longer scored by Jaro-Winkler.
    assert.equal(tokenSimilarity(`${base}x`, `${base}y`), 0.85);
    assert.equal(tokenSimilarity(`${base}xyz`, `${base}yzw`), 0);
    assert.equal(tokenSimilarity('customerx', 'customrxy'), 0.6);
    const short = { schemaHeaders: headers('s', ['qwzx']), fileHeaders: headers('f', ['vbnm']) };
    const long = { schemaHeaders: headers('s', [word('qwzx', 200)]), fileHeaders: headers('f', [word('vbnm', 200)]) };
    assert.ok(costOf(long)! > 10 * costOf(short)!, `${costOf(long)} against ${costOf(short)}`);
  });

  it('reads the first 40 words of a description, each Chinese character a word, and estimates them before analysing', () => {
    const text = Array.from({ length: 1000 }, () => String.fromCharCode(0x4e00 + Math.floor(random() * 2000))).join('');
    const described = (description: string) => ({ schemaHeaders: headers('s', ['Name'], { description }), fileHeaders: headers('f', ['Nom']) });
    assert.equal(costOf(described(text)), costOf(described(text.slice(0, 40))));
    // 500 x 500 described headers, over a budget their names alone are not: refused by the estimate, before any
    // header is analysed (its first step).
    const many = (prefix: string) => headers(prefix, Array.from({ length: 500 }, (_, i) => `h${i}`), { description: text });
    const run = matchHeaderSteps({ schemaHeaders: many('s'), fileHeaders: many('f') }, { budget: 12_000_000 });
    assert.throws(() => run.next(), /too much work/);
  });

  it('yields at least once per 64 pairs scored, however few schema headers share them', () => {
    const input = { schemaHeaders: headers('s', ['Email', 'Phone']), fileHeaders: headers('f', Array.from({ length: 500 }, () => word('abcdefgh', 30))) };
    let steps = 0;
    const run = matchHeaderSteps(input);
    while (!run.next().done) steps++;
    assert.ok(steps >= 502 + 1000 / 64, String(steps));
  });

  it('gives no pair to headers with no letters or digits (emoji, punctuation)', () => {
    assert.deepEqual(matchHeaders({ schemaHeaders: headers('s', ['📧']), fileHeaders: headers('f', ['📞']) }).mappings, {});
    assert.deepEqual(matchHeaders({ schemaHeaders: headers('s', ['---']), fileHeaders: headers('f', ['***', 'Notes']) }).mappings, {});
  });

  it('answers a "__proto__" schema key as an own member', () => {
    const { mappings } = matchHeaders({ schemaHeaders: [{ key: '__proto__', label: 'Email' }], fileHeaders: [{ key: 'f1', label: 'E-mail' }] });
    assert.deepEqual(Object.entries(mappings).map(([k, v]) => [k, v.fileKey]), [['__proto__', 'f1']]);
    assert.equal(Object.getPrototypeOf(mappings), Object.prototype);
  });
});
