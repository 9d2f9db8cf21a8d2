/**
 * Offline header matcher: scores every plausible schema x file pair from
 * concepts, tokens and characters, applies near-miss guards and value-kind
 * evidence, then assigns one-to-one with the Hungarian algorithm.
 * Pure and deterministic; no I/O.
 */
import { analyzeHeader, conceptCount, partialWords, QUALIFIER, relatedness, TOKEN, unqualifiedFactor, type HeaderFeatures, type Unit } from './concepts';
import { assignByComponents } from './assignment';
import { MUTUAL_DROP, mutualBestPairs } from './mutual-best';
import { disjointValues, kindCompatibility, inferSamplesKind, sampleOverlap, valueSpread, valueWords, type ValueKind, type ValueSpread } from './samples';
import { cosine, termVectors, type TermVector } from './descriptions';
import { MAX_FUZZY_CHARS, profileDice, tokenSimilarity, trigramProfile } from './similarity';
import type { HeaderItem, MapHeadersInput, MapHeadersOutput } from './schemas';
import { runAll, type Steps } from './steps';
import { validationFailed } from '../errors';
import { setOwn } from '../../lib/own-member';

export interface MatchOptions {
  /**
   * Minimum confidence for a mapping (default 0.5, raised slightly for very unequal list sizes); a pair
   * that is the clear best of both its headers among those left open may score down to 0.3 below it (mutual-best.ts).
   */
  threshold?: number;
  /** Scores this close to the threshold, or to a rival, are reported as uncertain (default 0.12). */
  uncertainMargin?: number;
  /**
   * Most pairwise work allowed (see `pairwiseCost`); past it the call fails with validation_failed before
   * any pair is scored. Unbounded by default (bench, tests); the service passes the configured budget.
   */
  budget?: number;
  /** Told the call's pairwise cost once the headers are analysed, before the pairs are scored. */
  onCost?: (cost: number) => void;
}

export interface Candidate {
  fileKey: string;
  score: number;
}

/** A schema key the matcher is unsure about, with its best file candidates. */
export interface UncertainPair {
  schemaKey: string;
  chosen: string | null;
  candidates: Candidate[];
}

export interface MatchResult {
  mappings: MapHeadersOutput;
  uncertain: UncertainPair[];
}

interface Variant {
  features: HeaderFeatures;
  grams: Int32Array;
  /** Factor on this name's scores: below 1 for a name inferred from the other list. */
  trust?: number;
}

// An initialism read from the other list is likely, not certain: its pair stays below an exact match.
const INITIALISM_TRUST = 0.85;
// A short unknown word against a concept its letters abbreviate (concepts.ts `abbreviates`): below a one-letter typo (0.85) and a cut-off word (0.7).
const ABBREVIATION = 0.6;
// The description cosine (descriptions.ts) at which a score moves all the way to 1; below it, part of the way.
// Descriptions of a few dozen words that share their rare words reach about 0.3-0.5.
const FULL_DESCRIPTION_COSINE = 0.5;
// Score factor for two text (or text and flag) columns whose several sample values share no word (samples.ts).
const DISJOINT_VALUES = 0.8;
// How far sample values the two columns share (weighted by rarity, samples.ts) move a score towards 1.
const SHARED_VALUES = 0.7;

interface Prepared {
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

// Threshold added per factor of ten between the two lists' sizes.
const RATIO_SLOPE = 0.15;
// Above this many pairs, only pairs sharing a concept or token are scored.
const FULL_SCAN_PAIRS = 250_000;
// Candidates kept per schema key for the assignment; bounds the Hungarian step.
const MAX_CANDIDATES = 8;
// Words of a description read: long descriptions add little beyond their first words and cost time.
const DESCRIPTION_WORDS = 40;
// A word, for counting: each Chinese character is one (such text has no spaces, and each becomes a unit).
const WORD = /\p{Script=Han}|[\p{L}\p{N}]+/gu;

/** A description up to the end of its DESCRIPTION_WORDS-th word. */
function descriptionHead(desc: string): string {
  let n = 0;
  for (const m of desc.matchAll(WORD)) if (++n === DESCRIPTION_WORDS) return desc.slice(0, m.index + m[0].length);
  return desc;
}
// Distinct sample words kept per header: every pair compares them (disjointValues), so they are part of its fixed cost.
const MAX_VALUE_WORDS = 24;
// Pairs scored between two steps: a step stays short however the work is spread over rows and columns.
const PAIRS_PER_STEP = 64;

function prepare(item: HeaderItem): Prepared {
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

/**
 * A header that is one short unknown word ("CC", "OD") may be the initials of a header on the other side
 * ("Country code", "Order date"): when exactly one header there has those initials, that header's words
 * become a second name of this one, trusted a little less than its own.
 */
function expandInitialisms(side: Prepared[], other: Prepared[]): void {
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

/** Per call: the weight factor of each unit of the two lists' headers (absent: 1). */
type Rarity = Map<Unit, number>;

// A unit in more than this many headers of the two lists starts to weigh less.
const COMMON_IN = 4;
/**
 * Generic words ("id", "name", "date", "type") weigh as much as specific ones in the vocabulary, and pull
 * wrong pairs over the threshold when many headers share them: weigh each unit by its rarity across the two
 * lists, 1 / (1 + log2(df / COMMON_IN)) past COMMON_IN headers (an IDF over this one call's headers).
 */
function unitRarity(all: Prepared[]): Rarity {
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

function guardsCovered(own: Set<number>, other: Set<number>): number {
  let factor = 1;
  for (const g of own) {
    if (other.has(g)) continue;
    let close = false;
    for (const h of other) if ((relatedness.get(g * conceptCount + h) ?? 0) >= 0.8) close = true;
    if (!close) factor *= 0.4;
  }
  return factor;
}

/**
 * Qualifier family -> concepts that some header of one side carries with a
 * qualifier of that family ("Shipping ZIP" -> order_party: {postal_code}).
 */
type QualifiedConcepts = Map<string, Set<number>>;

function qualifiedConcepts(side: Prepared[]): QualifiedConcepts {
  const out: QualifiedConcepts = new Map();
  for (const p of side)
    for (const family of p.variants[0]!.features.qualifiers.keys()) {
      const set = out.get(family) ?? out.set(family, new Set()).get(family)!;
      for (const u of p.variants[0]!.features.units) if (u.concept >= 0) set.add(u.concept);
    }
  return out;
}

/**
 * One header is qualified ("Billing ZIP"), the other is not ("ZIP"). Mild
 * penalty, unless the unqualified header's own side also has a qualified
 * sibling with the same concept: then it is deliberately the other one.
 */
function oneSidedFactor(ids: Set<string>, family: string, plain: HeaderFeatures, plainSide: QualifiedConcepts): number {
  let factor = 1;
  for (const id of ids) factor = Math.min(factor, unqualifiedFactor.get(id) ?? 0.9);
  const siblings = plainSide.get(family);
  if (siblings && plain.units.some((u) => u.concept >= 0 && siblings.has(u.concept))) factor *= 0.5;
  return factor;
}

/** Multiplicative penalties for qualified near-misses. */
function guardFactor(a: HeaderFeatures, b: HeaderFeatures, aSide: QualifiedConcepts, bSide: QualifiedConcepts): number {
  let factor = 1;
  for (const [family, qa] of a.qualifiers) {
    const qb = b.qualifiers.get(family);
    if (!qb) factor *= oneSidedFactor(qa, family, b, bSide);
    else {
      let shared = false;
      for (const q of qa) if (qb.has(q)) shared = true;
      if (!shared) factor *= 0.3; // billing vs shipping, home vs work
    }
  }
  for (const [family, qb] of b.qualifiers) if (!a.qualifiers.has(family)) factor *= oneSidedFactor(qb, family, a, aSide);
  // "Email consent" is not "Email": a meaning-changing concept must be on both sides.
  if (a.guards.size > 0) factor *= guardsCovered(a.guards, b.guards);
  if (b.guards.size > 0) factor *= guardsCovered(b.guards, a.guards);
  if (a.numbers !== '' && b.numbers !== '') {
    if (a.numbers !== b.numbers) factor *= 0.55; // "Address 1" vs "Address 2"
  } else if ((a.numbers || '1') !== '1' || (b.numbers || '1') !== '1') factor *= 0.75; // "Address 2" vs "Address"
  if (a.measureUnits.length > 0 && b.measureUnits.length > 0 && !a.measureUnits.some((u) => b.measureUnits.includes(u)))
    factor *= 0.85;
  return factor;
}

interface Sides {
  schema: QualifiedConcepts;
  file: QualifiedConcepts;
  rarity: Rarity;
  values: ValueSpread;
}

// A guard factor below this sets two names apart ("Email consent" / "Email", billing / shipping ZIP): the
// mutual pass never takes such a pair, however clear its lead.
const SET_APART = 0.5;

/** A pair's score, and whether a guard set the names that gave it apart. */
interface PairScore {
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
function scorePair(s: Prepared, f: Prepared, sides: Sides, out: PairScore): void {
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

/**
 * A header whose name reads the same as exactly one header of the other list (and no other header of its
 * own list reads so), with a score over the threshold, is that header: the pair is kept out of the trade-offs of the assignment, which
 * could otherwise give the column to a look-alike when that raises the sum ("Order total" would take
 * "Adjusted Order Total" so that "Net revenue" gets "Order Total").
 */
function lockIdenticalNames(schema: Prepared[], file: Prepared[], candidates: { col: number; score: number }[][], threshold: number): void {
  const count = (side: Prepared[]) => {
    const n = new Map<string, number>();
    for (const p of side) {
      const t = p.variants[0]!.features.text;
      if (t) n.set(t, (n.get(t) ?? 0) + 1);
    }
    return n;
  };
  const inSchema = count(schema);
  const inFile = count(file);
  const colOf = new Map<string, number>();
  file.forEach((p, j) => colOf.set(p.variants[0]!.features.text, j));
  const locked = new Map<number, number>();
  schema.forEach((p, i) => {
    const t = p.variants[0]!.features.text;
    if (!t || inSchema.get(t) !== 1 || inFile.get(t) !== 1) return;
    // Samples that contradict the name (scored below the threshold) undo the lock.
    const col = colOf.get(t)!;
    if (candidates[i]!.some((c) => c.col === col && c.score >= threshold)) locked.set(i, col);
  });
  const lockedCols = new Set(locked.values());
  candidates.forEach((list, i) => {
    const col = locked.get(i);
    candidates[i] = col === undefined ? list.filter((c) => !lockedCols.has(c.col)) : list.filter((c) => c.col === col);
  });
}

/** Keys that make two headers worth scoring when the input is too large to score every pair. */
function blockingKeys(p: Prepared, expand: boolean): string[] {
  const keys = new Set<string>();
  for (const v of p.variants)
    for (const u of v.features.units) {
      if (u.concept < 0) {
        keys.add(`t:${u.token.slice(0, 4)}`); // prefix, so typos and abbreviations still meet
        continue;
      }
      keys.add(`c:${u.concept}`);
      if (expand) for (let o = 0; o < conceptCount; o++) if (relatedness.has(u.concept * conceptCount + o)) keys.add(`c:${o}`);
    }
  return [...keys];
}

function candidateColumns(schema: Prepared[], file: Prepared[]): (row: number) => Iterable<number> {
  const all = file.map((_, j) => j);
  if (schema.length * file.length <= FULL_SCAN_PAIRS) return () => all;
  const postings = new Map<string, number[]>();
  file.forEach((f, j) => {
    for (const k of blockingKeys(f, false)) (postings.get(k) ?? postings.set(k, []).get(k)!).push(j);
  });
  return (row) => {
    const cols = new Set<number>();
    for (const k of blockingKeys(schema[row]!, true)) for (const j of postings.get(k) ?? []) cols.add(j);
    return [...cols].sort((x, y) => x - y);
  };
}

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
function pairwiseCost(schema: Prepared[], file: Prepared[]): number {
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
function costFloor(input: MapHeadersInput): number {
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

function checkBudget(cost: number, input: MapHeadersInput, budget = Infinity): void {
  if (cost <= budget) return;
  throw validationFailed([
    {
      path: '',
      message: `comparing ${input.schemaHeaders.length} schema headers with ${input.fileHeaders.length} file headers is too much work (cost ${Math.round(cost)}, budget ${budget}): send fewer or shorter headers`,
    },
  ]);
}

/**
 * Map schema headers to file headers offline. Deterministic: the same input
 * gives the same output. Schema keys scoring below the threshold stay unmatched.
 * Throws validation_failed when the work exceeds `options.budget`.
 */
export function matchHeaders(input: MapHeadersInput, options: MatchOptions = {}): MatchResult {
  return runAll(matchHeaderSteps(input, options));
}

/** `matchHeaders` as steps (one per header prepared, per schema row scored, per row assigned). */
export function* matchHeaderSteps(input: MapHeadersInput, options: MatchOptions = {}): Steps<MatchResult> {
  // Many headers on one side against few on the other means many chance look-alikes
  // per true pair: demand more (+0.15 per factor of ten in the size ratio: 30 against 2 headers need 0.68).
  const sizes = [input.schemaHeaders.length, input.fileHeaders.length];
  const ratio = Math.max(...sizes, 1) / Math.max(Math.min(...sizes), 1);
  const threshold = (options.threshold ?? 0.5) + RATIO_SLOPE * Math.log10(ratio);
  const margin = options.uncertainMargin ?? 0.12;
  checkBudget(costFloor(input), input, options.budget);
  const schema: Prepared[] = [];
  const file: Prepared[] = [];
  for (const [items, into] of [[input.schemaHeaders, schema], [input.fileHeaders, file]] as const)
    for (const item of items) {
      into.push(prepare(item));
      yield;
    }
  expandInitialisms(schema, file);
  expandInitialisms(file, schema);
  const cost = pairwiseCost(schema, file);
  checkBudget(cost, input, options.budget);
  options.onCost?.(cost);
  const columnsFor = candidateColumns(schema, file);
  const all = [...schema, ...file];
  if (all.some((p) => p.described)) termVectors(all.map((p) => p.doc)).forEach((v, k) => (all[k]!.vector = v));
  const sides: Sides = {
    schema: qualifiedConcepts(schema),
    file: qualifiedConcepts(file),
    rarity: unitRarity(all),
    values: valueSpread(schema.map((p) => p.values), file.map((p) => p.values)),
  };
  // Per schema row, its strongest candidates (score-descending, then column order).
  const candidates: { col: number; score: number }[][] = [];
  // Every score, for the mutual pass after the assignment (at most 500 x 500 through the service: 2 MB);
  // 0 there for names a guard set apart.
  const scores = new Float64Array(schema.length * file.length);
  const pair: PairScore = { score: 0, apart: false };
  let pairsInStep = 0;
  for (let i = 0; i < schema.length; i++) {
    const scored: { col: number; score: number }[] = [];
    for (const j of columnsFor(i)) {
      if (++pairsInStep === PAIRS_PER_STEP) {
        pairsInStep = 0;
        yield;
      }
      scorePair(schema[i]!, file[j]!, sides, pair);
      const score = pair.score;
      if (!pair.apart) scores[i * file.length + j] = score;
      if (score >= threshold - margin) scored.push({ col: j, score });
    }
    scored.sort((x, y) => y.score - x.score || x.col - y.col);
    candidates.push(scored.slice(0, MAX_CANDIDATES));
    yield;
  }
  lockIdenticalNames(schema, file, candidates, threshold);
  const assigned = yield* assignByComponents(candidates, threshold);
  const mutual = yield* mutualBestPairs(scores, file.length, assigned, threshold - MUTUAL_DROP);
  const mappings: MapHeadersOutput = {};
  const uncertain: UncertainPair[] = [];
  schema.forEach((_, i) => {
    const schemaKey = input.schemaHeaders[i]!.key;
    const chosen = mutual.get(i) ?? candidates[i]!.find((c) => c.col === assigned[i]);
    const col = chosen?.col ?? -1;
    if (chosen) setOwn(mappings, schemaKey, { fileKey: input.fileHeaders[col]!.key, confidence: Math.round(chosen.score * 1000) / 1000 });
    // A mutual best pair below the threshold may be missing from its row's candidates.
    const listed = !chosen || candidates[i]!.some((c) => c.col === col);
    const top = (listed ? candidates[i]! : [chosen, ...candidates[i]!]).slice(0, 3);
    const rival = top.find((c) => c.col !== col);
    const unsure = chosen
      ? chosen.score < threshold + margin || (rival !== undefined && chosen.score - rival.score < margin / 2)
      : top.length > 0;
    if (unsure)
      uncertain.push({
        schemaKey,
        chosen: chosen ? input.fileHeaders[col]!.key : null,
        candidates: top.map((c) => ({ fileKey: input.fileHeaders[c.col]!.key, score: Math.round(c.score * 1000) / 1000 })),
      });
  });
  return { mappings, uncertain };
}
