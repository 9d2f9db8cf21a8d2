/**
 * Offline header matcher: prepares each header (prepared-headers.ts), scores every plausible schema x file
 * pair from concepts, tokens and characters with near-miss guards and value evidence (pair-score.ts,
 * match-guards.ts), then assigns one-to-one with the Hungarian algorithm (match-candidates.ts, assignment.ts).
 * Pure and deterministic; no I/O.
 */
import { setOwn } from '../../lib/own-member';
import { assignByComponents } from './assignment';
import { termVectors } from './descriptions';
import { candidateColumns, lockIdenticalNames } from './match-candidates';
import { checkBudget, costFloor, pairwiseCost } from './match-cost';
import { qualifiedConcepts } from './match-guards';
import { MUTUAL_DROP, mutualBestPairs } from './mutual-best';
import { scorePair, unitRarity, type PairScore, type Sides } from './pair-score';
import { expandInitialisms, prepare, type Prepared } from './prepared-headers';
import { valueSpread } from './samples';
import type { MapHeadersInput, MapHeadersOutput } from './schemas';
import { runAll, type Steps } from './steps';

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

// Threshold added per factor of ten between the two lists' sizes.
const RATIO_SLOPE = 0.15;
// Candidates kept per schema key for the assignment; bounds the Hungarian step.
const MAX_CANDIDATES = 8;
// Pairs scored between two steps: a step stays short however the work is spread over rows and columns.
const PAIRS_PER_STEP = 64;

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
