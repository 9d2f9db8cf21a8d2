// The score of one schema x file pair: its names (units, characters, guards), its descriptions, the kinds and
// words of its sample values.

import { conceptCount, partialWords, QUALIFIER, relatedness, TOKEN, type Unit } from './concepts';
import { cosine } from './descriptions';
import { guardFactor, type QualifiedConcepts } from './match-guards';
import type { Prepared, Variant } from './prepared-headers';
import { disjointValues, kindCompatibility, sampleOverlap, type ValueSpread } from './samples';
import { profileDice, tokenSimilarity } from './similarity';

// A short unknown word against a concept its letters abbreviate (concepts.ts `abbreviates`): below a one-letter typo (0.85) and a cut-off word (0.7).
const ABBREVIATION = 0.6;
// The description cosine (descriptions.ts) at which a score moves all the way to 1; below it, part of the way.
// Descriptions of a few dozen words that share their rare words reach about 0.3-0.5.
const FULL_DESCRIPTION_COSINE = 0.5;
// Score factor for two text (or text and flag) columns whose several sample values share no word (samples.ts).
const DISJOINT_VALUES = 0.8;
// How far sample values the two columns share (weighted by rarity, samples.ts) move a score towards 1.
const SHARED_VALUES = 0.7;

function unitSimilarity(a: Unit, b: Unit): number {
  if (a.concept >= 0 && b.concept >= 0)
    return a.concept === b.concept ? 1 : (relatedness.get(a.concept * conceptCount + b.concept) ?? 0);
  if (a.concept === QUALIFIER || b.concept === QUALIFIER) return a.concept === b.concept && a.token === b.token ? 1 : 0;
  if (a.concept === TOKEN && b.concept === TOKEN) return tokenSimilarity(a.token, b.token);
  // A stray word of a multi-word term ("first" of first_name) is weak evidence.
  const word = a.concept === TOKEN ? a : b;
  const concept = word === a ? b.concept : a.concept;
  if (partialWords.get(word.token)?.has(concept)) return 0.5;
  // A short unknown word may abbreviate a concept of the other header ("OT" / overtime).
  return word.abbreviates?.has(concept) ? ABBREVIATION : 0;
}

/** Per call: the weight factor of each unit of the two lists' headers (absent: 1). */
export type Rarity = Map<Unit, number>;

// A unit in more than this many headers of the two lists starts to weigh less.
const COMMON_IN = 4;
/**
 * Generic words ("id", "name", "date", "type") weigh as much as specific ones in the vocabulary, and pull
 * wrong pairs over the threshold when many headers share them: weigh each unit by its rarity across the two
 * lists, 1 / (1 + log2(df / COMMON_IN)) past COMMON_IN headers (an IDF over this one call's headers).
 */
export function unitRarity(all: Prepared[]): Rarity {
  const keyOf = (u: Unit) => (u.concept >= 0 ? `c${u.concept}` : `${u.concept}${u.token}`);
  const df = new Map<string, number>();
  for (const p of all) {
    const seen = new Set<string>();
    for (const v of p.variants) for (const u of v.features.units) seen.add(keyOf(u));
    for (const k of seen) df.set(k, (df.get(k) ?? 0) + 1);
  }
  const rarity: Rarity = new Map();
  for (const p of all)
    for (const v of p.variants)
      for (const u of v.features.units) {
        const n = df.get(keyOf(u))!;
        if (n > COMMON_IN) rarity.set(u, 1 / (1 + Math.log2(n / COMMON_IN)));
      }
  return rarity;
}

const scratch = { best: new Float64Array(64) };
/** Weighted soft Dice: each unit counts with its best counterpart on the other side. */
function softDice(a: Unit[], b: Unit[], rarity: Rarity): number {
  if (scratch.best.length < b.length) scratch.best = new Float64Array(b.length * 2);
  const bestB = scratch.best.fill(0, 0, b.length);
  let matched = 0;
  let total = 0;
  for (let i = 0; i < a.length; i++) {
    const ua = a[i]!;
    let best = 0;
    for (let j = 0; j < b.length; j++) {
      const sim = unitSimilarity(ua, b[j]!);
      if (sim > best) best = sim;
      if (sim > bestB[j]!) bestB[j] = sim;
    }
    const weight = ua.weight * (rarity.get(ua) ?? 1);
    matched += weight * best;
    total += weight;
  }
  for (let j = 0; j < b.length; j++) {
    const weight = b[j]!.weight * (rarity.get(b[j]!) ?? 1);
    matched += weight * bestB[j]!;
    total += weight;
  }
  return total === 0 ? 0 : matched / total;
}

export interface Sides {
  schema: QualifiedConcepts;
  file: QualifiedConcepts;
  rarity: Rarity;
  values: ValueSpread;
}

// A guard factor below this sets two names apart ("Email consent" / "Email", billing / shipping ZIP): the
// mutual pass never takes such a pair, however clear its lead.
const SET_APART = 0.5;

/** A pair's score, and whether a guard set the names that gave it apart. */
export interface PairScore {
  score: number;
  apart: boolean;
}

function nameScore(a: Variant, b: Variant, sides: Sides, out: PairScore): void {
  const fa = a.features;
  const fb = b.features;
  out.apart = false;
  if (fa.text.length > 0 && fa.text === fb.text) {
    out.score = 1;
    return;
  }
  const dice = softDice(fa.units, fb.units, sides.rarity);
  const chars = profileDice(a.grams, b.grams);
  // Characters matter more when the vocabulary did not understand the words.
  const charWeight = 0.15 + 0.3 * Math.max(fa.residualShare, fb.residualShare);
  const guard = guardFactor(fa, fb, sides.schema, sides.file);
  out.score = (dice * (1 - charWeight) + chars * charWeight) * guard;
  out.apart = guard < SET_APART;
}

/** Moves a score towards 1 when value kinds agree and down when they clash. */
function kindEvidence(score: number, compat: number, strength: number): number {
  if (compat >= 0.99) return score + (1 - score) * 0.25 * strength;
  if (compat <= 0.3) return score * (1 - strength * (0.3 - compat) * 1.5);
  return score;
}

/** Scores one schema x file pair into `out` (reused across pairs). */
export function scorePair(s: Prepared, f: Prepared, sides: Sides, out: PairScore): void {
  let score = 0;
  let apart = false;
  for (const vs of s.variants)
    for (const vf of f.variants) {
      nameScore(vs, vf, sides, out);
      const name = out.score * (vs.trust ?? 1) * (vf.trust ?? 1);
      if (name > score) {
        score = name;
        apart = out.apart;
      }
    }
  // A description is a second opinion, against the other's description or label: it can raise a score, never lower it.
  if ((s.described || f.described) && s.vector && f.vector)
    score += (1 - score) * Math.min(1, cosine(s.vector, f.vector) / FULL_DESCRIPTION_COSINE);
  const expectedS = s.variants[0]!.features.expectedKind;
  const expectedF = f.variants[0]!.features.expectedKind;
  if (s.kind && f.kind) score = kindEvidence(score, kindCompatibility(s.kind, f.kind), 1);
  else if (f.kind && expectedS) score = kindEvidence(score, kindCompatibility(expectedS, f.kind), 0.6);
  else if (s.kind && expectedF) score = kindEvidence(score, kindCompatibility(s.kind, expectedF), 0.6);
  if (disjointValues(s, f)) score *= DISJOINT_VALUES;
  const overlap = sampleOverlap(s.values, f.values, sides.values);
  // Shared rare values are strong evidence of the same column whatever the names say (see sampleOverlap);
  // yes/no are shared by any two flags.
  if (overlap > 0 && s.kind !== 'boolean' && f.kind !== 'boolean') score += (1 - score) * SHARED_VALUES * overlap;
  out.score = Math.min(1, Math.max(0, score));
  out.apart = apart;
}
