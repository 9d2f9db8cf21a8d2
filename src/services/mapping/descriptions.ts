/**
 * Descriptions as evidence: a header's label and description words (concept units, so synonyms meet) as a
 * TF-IDF vector over the headers of one call, compared by cosine. A word found in many of the call's
 * headers ("patient", "record", "identifier" in a clinical schema) weighs little, and one in every header
 * almost nothing (IDF ln((n + 1) / df)); one that two headers alone share weighs much, whatever the words'
 * order or the descriptions' lengths.
 */
import type { Unit } from './concepts';

/** Term ids ascending, weights scaled to unit length. */
export interface TermVector {
  terms: Int32Array;
  weights: Float64Array;
}

function unitKey(u: Unit): string {
  return u.concept >= 0 ? `c${u.concept}` : `${u.concept}${u.token}`;
}

/** One vector per document (null stays null); the IDF counts the documents given, so one call's headers. */
export function termVectors(docs: readonly (readonly Unit[] | null)[]): (TermVector | null)[] {
  const ids = new Map<string, number>();
  const counts = docs.map((doc) => {
    if (!doc) return null;
    const tf = new Map<number, number>();
    for (const u of doc) {
      const key = unitKey(u);
      const id = ids.get(key) ?? ids.set(key, ids.size).get(key)!;
      tf.set(id, (tf.get(id) ?? 0) + u.weight);
    }
    return tf;
  });
  const df = new Map<number, number>();
  let n = 0;
  for (const tf of counts) {
    if (!tf) continue;
    n++;
    for (const id of tf.keys()) df.set(id, (df.get(id) ?? 0) + 1);
  }
  return counts.map((tf) => {
    if (!tf) return null;
    const entries = [...tf].map(([id, w]) => [id, w * Math.log((n + 1) / df.get(id)!)] as const).sort((a, b) => a[0] - b[0]);
    const norm = Math.hypot(...entries.map(([, w]) => w)) || 1;
    return { terms: Int32Array.from(entries, ([id]) => id), weights: Float64Array.from(entries, ([, w]) => w / norm) };
  });
}

/** Cosine of two vectors, in [0, 1]: one merge of the sorted terms. */
export function cosine(a: TermVector, b: TermVector): number {
  let i = 0;
  let j = 0;
  let sum = 0;
  while (i < a.terms.length && j < b.terms.length) {
    const x = a.terms[i]!;
    const y = b.terms[j]!;
    if (x === y) sum += a.weights[i++]! * b.weights[j++]!;
    else if (x < y) i++;
    else j++;
  }
  return Math.min(1, sum);
}
