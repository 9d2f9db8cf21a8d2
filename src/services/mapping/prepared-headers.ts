// A header as the matcher compares it: its names (the label, the key, an initialism read from the other list),
// the units of its description and its sample values (match-headers.ts).

import { analyzeHeader, type HeaderFeatures, type Unit } from './concepts';
import type { TermVector } from './descriptions';
import { inferSamplesKind, valueWords, type ValueKind } from './samples';
import type { HeaderItem } from './schemas';
import { trigramProfile } from './similarity';

export interface Variant {
  features: HeaderFeatures;
  grams: Int32Array;
  /** Factor on this name's scores: below 1 for a name inferred from the other list. */
  trust?: number;
}

// An initialism read from the other list is likely, not certain: its pair stays below an exact match.
const INITIALISM_TRUST = 0.85;

export interface Prepared {
  /** The label, and the key when it reads differently. */
  variants: Variant[];
  /** Units of the label, and of the description when one is given. */
  doc: Unit[];
  described: boolean;
  /** `doc` weighed across the call (descriptions.ts); set once every header is prepared. */
  vector: TermVector | null;
  /** Normalised distinct sample values. */
  values: Set<string>;
  /** Distinct words of those values. */
  words: Set<string>;
  kind: ValueKind | null;
}

// Words of a description read: long descriptions add little beyond their first words and cost time.
export const DESCRIPTION_WORDS = 40;
// A word, for counting: each Chinese character is one (such text has no spaces, and each becomes a unit).
export const WORD = /\p{Script=Han}|[\p{L}\p{N}]+/gu;

/** A description up to the end of its DESCRIPTION_WORDS-th word. */
function descriptionHead(desc: string): string {
  let n = 0;
  for (const m of desc.matchAll(WORD)) if (++n === DESCRIPTION_WORDS) return desc.slice(0, m.index + m[0].length);
  return desc;
}
// Distinct sample words kept per header: every pair compares them (disjointValues), so they are part of its fixed cost.
const MAX_VALUE_WORDS = 24;

export function prepare(item: HeaderItem): Prepared {
  const main = analyzeHeader(item.label.trim() || item.key);
  const variants = [{ features: main, grams: trigramProfile(main.text) }];
  // A key that reads differently ("msrp" for "RRP") is a second name, if the vocabulary knows it.
  if (item.key !== item.label && item.label.trim()) {
    const alt = analyzeHeader(item.key);
    if (alt.text !== main.text && alt.units.some((u) => u.concept >= 0)) variants.push({ features: alt, grams: trigramProfile(alt.text) });
  }
  const desc = item.description?.trim();
  const doc = desc ? [...main.units, ...analyzeHeader(descriptionHead(desc)).units] : main.units;
  const values = new Set((item.samples ?? []).map((v) => v.trim().toLowerCase()).filter((v) => v.length > 0));
  const described = desc !== undefined && desc !== '';
  return { variants, doc, described, vector: null, values, words: valueWords(values, MAX_VALUE_WORDS), kind: inferSamplesKind(item.samples) };
}

/**
 * A header that is one short unknown word ("CC", "OD") may be the initials of a header on the other side
 * ("Country code", "Order date"): when exactly one header there has those initials, that header's words
 * become a second name of this one, trusted a little less than its own.
 */
export function expandInitialisms(side: Prepared[], other: Prepared[]): void {
  const byInitials = new Map<string, Prepared[]>();
  for (const p of other) {
    const words = p.variants[0]!.features.text.split(' ').filter((w) => /^\p{L}/u.test(w));
    if (words.length < 2 || words.length > 4) continue;
    const initials = words.map((w) => w[0]).join('');
    (byInitials.get(initials) ?? byInitials.set(initials, []).get(initials)!).push(p);
  }
  for (const p of side) {
    const main = p.variants[0]!.features;
    if (!/^\p{L}{2,4}$/u.test(main.text) || main.residualShare < 1) continue;
    const match = byInitials.get(main.text);
    if (match?.length !== 1) continue;
    const expanded = match[0]!.variants[0]!.features;
    p.variants.push({ features: expanded, grams: trigramProfile(expanded.text), trust: INITIALISM_TRUST });
  }
}
