// The pairwise work of one call, checked against its budget before the pairs are scored.

import { validationFailed } from '../errors';
import { TOKEN, type Unit } from './concepts';
import { DESCRIPTION_WORDS, WORD, type Prepared } from './prepared-headers';
import type { HeaderItem, MapHeadersInput } from './schemas';
import { MAX_FUZZY_CHARS } from './similarity';

// Cost units of one pair's fixed work (guards, kinds, samples up to MAX_VALUE_WORDS words, bookkeeping), in unit comparisons.
const PAIR_COST = 24;
// Trigrams merged per cost unit.
const GRAMS_PER_UNIT = 4;
// A word the vocabulary does not know is compared by characters (edit distance, Jaro-Winkler): it costs
// several concept comparisons.
const TOKEN_COST = 3;

/**
 * Work of scoring every schema x file pair, in unit comparisons: the pairs' fixed cost, every unit of one
 * side's names against every unit of the other's, and the trigram and description-vector merges. Known from the
 * prepared headers alone, so it is checked before the quadratic work is paid.
 */
export function pairwiseCost(schema: Prepared[], file: Prepared[]): number {
  const total = (side: Prepared[], of: (p: Prepared) => number) => side.reduce((sum, p) => sum + of(p), 0);
  // A long unknown token costs its length in character comparisons (similarity.ts: linear past MAX_FUZZY_CHARS).
  const unitCost = (u: Unit) => (u.concept === TOKEN ? TOKEN_COST * Math.ceil(u.token.length / MAX_FUZZY_CHARS) : 1);
  const units = (p: Prepared) => p.variants.reduce((sum, v) => sum + v.features.units.reduce((n, u) => n + unitCost(u), 0), 0);
  const grams = (p: Prepared) => p.variants.reduce((sum, v) => sum + v.grams.length, 0);
  // Description vectors are merged, like trigrams, for every pair once any header is described.
  const anyDescribed = schema.some((p) => p.described) || file.some((p) => p.described);
  const doc = (p: Prepared) => (anyDescribed ? p.doc.length : 0);
  const pairs = schema.length * file.length;
  return (
    pairs * PAIR_COST +
    total(schema, units) * total(file, units) +
    file.length * total(schema, doc) + schema.length * total(file, doc) +
    (file.length * total(schema, grams) + schema.length * total(file, grams)) / GRAMS_PER_UNIT
  );
}

/**
 * An estimate of `pairwiseCost` from word and character counts alone, on the low side (a unit per two
 * words: phrases become one unit), so that a request far over the budget is refused before its headers
 * are analysed; the exact cost is checked once they are.
 */
export function costFloor(input: MapHeadersInput): number {
  const described = [...input.schemaHeaders, ...input.fileHeaders].some((item) => item.description?.trim());
  const side = (items: HeaderItem[]) => {
    let units = 0;
    let grams = 0;
    let doc = 0;
    for (const item of items) {
      const name = item.label.trim() || item.key;
      const words = name.match(WORD)?.length ?? 0;
      units += words / 2;
      grams += name.length;
      if (described) doc += (words + Math.min(DESCRIPTION_WORDS, item.description?.match(WORD)?.length ?? 0)) / 2;
    }
    return { units, grams, doc };
  };
  const s = side(input.schemaHeaders);
  const f = side(input.fileHeaders);
  const nS = input.schemaHeaders.length;
  const nF = input.fileHeaders.length;
  return nS * nF * PAIR_COST + s.units * f.units + nF * s.doc + nS * f.doc + (nF * s.grams + nS * f.grams) / GRAMS_PER_UNIT;
}

export function checkBudget(cost: number, input: MapHeadersInput, budget = Infinity): void {
  if (cost <= budget) return;
  throw validationFailed([
    {
      path: '',
      message: `comparing ${input.schemaHeaders.length} schema headers with ${input.fileHeaders.length} file headers is too much work (cost ${Math.round(cost)}, budget ${budget}): send fewer or shorter headers`,
    },
  ]);
}
