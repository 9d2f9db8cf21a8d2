/**
 * String similarity primitives used by the header matcher. All functions are
 * pure, symmetric and return values in [0, 1] (distances excepted).
 */

// Reused match flags: this runs for many token pairs of every request, allocation would dominate.
let flagsA = new Uint8Array(64);
let flagsB = new Uint8Array(64);

/** Jaro-Winkler similarity; good at short tokens with typos and shared prefixes. */
export function jaroWinkler(a: string, b: string): number {
  if (a === b) return 1;
  const la = a.length;
  const lb = b.length;
  if (la === 0 || lb === 0) return 0;
  const window = Math.max(0, Math.floor(Math.max(la, lb) / 2) - 1);
  if (flagsA.length < la) flagsA = new Uint8Array(la * 2);
  if (flagsB.length < lb) flagsB = new Uint8Array(lb * 2);
  const matchedA = flagsA.fill(0, 0, la);
  const matchedB = flagsB.fill(0, 0, lb);
  let matches = 0;
  for (let i = 0; i < la; i++) {
    const lo = Math.max(0, i - window);
    const hi = Math.min(lb - 1, i + window);
    for (let j = lo; j <= hi; j++) {
      if (matchedB[j] === 0 && a.charCodeAt(i) === b.charCodeAt(j)) {
        matchedA[i] = 1;
        matchedB[j] = 1;
        matches++;
        break;
      }
    }
  }
  if (matches === 0) return 0;
  let transpositions = 0;
  let k = 0;
  for (let i = 0; i < la; i++) {
    if (matchedA[i] === 0) continue;
    while (matchedB[k] === 0) k++;
    if (a.charCodeAt(i) !== b.charCodeAt(k)) transpositions++;
    k++;
  }
  const jaro = (matches / la + matches / lb + (matches - transpositions / 2) / matches) / 3;
  let prefix = 0;
  while (prefix < 4 && prefix < la && prefix < lb && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix++;
  return jaro + prefix * 0.1 * (1 - jaro);
}

/**
 * Optimal-string-alignment distance (Levenshtein plus adjacent transposition),
 * stopping early once it exceeds `max`; returns max + 1 in that case.
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (max === 1) return a === b ? 0 : withinOneEdit(a, b) ? 1 : 2;
  const lb = b.length;
  let prev2 = new Array<number>(lb + 1).fill(0);
  let prev = Array.from({ length: lb + 1 }, (_, j) => j);
  let cur = new Array<number>(lb + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= lb; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2]! + 1);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return Math.min(prev[lb]!, max + 1);
}

/** x from xi on equals y from yi on. */
function restEqual(x: string, xi: number, y: string, yi: number): boolean {
  if (x.length - xi !== y.length - yi) return false;
  for (let k = 0; xi + k < x.length; k++) if (x.charCodeAt(xi + k) !== y.charCodeAt(yi + k)) return false;
  return true;
}

/** One substitution, insertion, deletion or adjacent transposition apart (a !== b), in one pass. */
function withinOneEdit(a: string, b: string): boolean {
  let i = 0;
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (a.length === b.length)
    return restEqual(a, i + 1, b, i + 1) || (a[i] === b[i + 1] && a[i + 1] === b[i] && restEqual(a, i + 2, b, i + 2));
  return a.length > b.length ? restEqual(a, i + 1, b, i) : restEqual(a, i, b, i + 1);
}

/**
 * Character trigrams of a string padded with spaces, as sorted 32-bit hashes:
 * computed once per header so pair comparisons are a linear merge.
 */
export function trigramProfile(s: string): Int32Array {
  // Nothing to compare: the padding alone would make two such headers (emoji, punctuation) look identical.
  if (s === '') return new Int32Array(0);
  const padded = `  ${s} `;
  const out = new Int32Array(Math.max(0, padded.length - 2));
  for (let i = 0; i + 3 <= padded.length; i++)
    out[i] = Math.imul(Math.imul(padded.charCodeAt(i), 65599) + padded.charCodeAt(i + 1), 65599) + padded.charCodeAt(i + 2);
  return out.sort();
}

/** Dice coefficient of two trigram profiles (multiset intersection), in [0, 1]. */
export function profileDice(a: Int32Array, b: Int32Array): number {
  if (a.length === 0 || b.length === 0) return 0;
  let i = 0;
  let j = 0;
  let shared = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      shared++;
      i++;
      j++;
    } else if (a[i]! < b[j]!) i++;
    else j++;
  }
  return (2 * shared) / (a.length + b.length);
}

// Jaro-Winkler costs the product of the two lengths; no word of a header is this long, only junk sent to cost time.
export const MAX_FUZZY_CHARS = 32;

/**
 * Similarity of two tokens the vocabulary does not know: exact, one typo,
 * or one a clear prefix-abbreviation of the other ("categ" / "category").
 * Linear in the tokens' lengths, except Jaro-Winkler, which only tokens of at most MAX_FUZZY_CHARS reach.
 */
export function tokenSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  const shorter = Math.min(a.length, b.length);
  if (shorter < 4) return 0;
  if (editDistance(a, b, 1) <= 1) return 0.85;
  if (a.startsWith(b) || b.startsWith(a)) return 0.7;
  const longer = Math.max(a.length, b.length);
  // Jaro-Winkler reaches 0.93 only when the shorter token is at least 0.65 of the longer one.
  if (shorter < 0.65 * longer || longer > MAX_FUZZY_CHARS) return 0;
  return jaroWinkler(a, b) >= 0.93 ? 0.6 : 0;
}
