import { setOwn } from './own-member';
// Rows are promised "stored and returned exactly", but JSON.parse turns 12345678901234567890 into
// 12345678901234567000. A row whose text holds a run of 16+ digits (the only way to write an integer past
// 2^53) takes a slower path that keeps such integer literals as their source text.

const LONG_DIGITS = /\d{16}/;

/** False when no integer in `text` can be beyond 2^53 (no run of 16 digits): JSON.parse keeps every number exact. */
export function mayHoldBigIntegers(text: string): boolean {
  return LONG_DIGITS.test(text);
}

/**
 * The JSON text to store for a row: JSON.stringify's, with the integers beyond 2^53 that `source` (the text the
 * row was parsed from, when it was) wrote kept as written.
 */
export function rowJsonText(row: object, source?: string): string {
  if (source !== undefined && LONG_DIGITS.test(source)) {
    const literals = bigIntegerLiterals(source);
    if (literals !== undefined && literals.size > 0) return rowText(row as Record<string, unknown>, literals);
  }
  return JSON.stringify(row);
}

/**
 * A stored row's cells, with integers beyond 2^53 as bigints (exact, and still numbers rather than text)
 * instead of the nearest double: for encoders that print cells (CSV).
 */
export function parseStoredRow(text: string): Record<string, unknown> {
  const cells = JSON.parse(text) as Record<string, unknown>;
  if (!LONG_DIGITS.test(text)) return cells;
  for (const [key, literal] of bigIntegerLiterals(text) ?? []) {
    // A `__proto__` column is an own cell, never the prototype.
    setOwn(cells, key, BigInt(literal));
  }
  return cells;
}

function rowText(row: Record<string, unknown>, literals: Map<string, string>): string {
  const parts: string[] = [];
  for (const key in row) parts.push(`${JSON.stringify(key)}:${literals.get(key) ?? JSON.stringify(row[key])}`);
  return `{${parts.join(',')}}`;
}

/**
 * The keys of a flat JSON object (already known to be valid JSON) whose value is an integer literal beyond
 * 2^53, with that literal; a later duplicate key wins, as in JSON.parse. Undefined for anything but a flat
 * object (nested rows are refused by the row checks anyway).
 */
function bigIntegerLiterals(text: string): Map<string, string> | undefined {
  const found = new Map<string, string>();
  let i = skipSpace(text, 0);
  if (text[i] !== '{') return undefined;
  i = skipSpace(text, i + 1);
  while (text[i] === '"') {
    const keyEnd = stringEnd(text, i);
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    i = skipSpace(text, skipSpace(text, keyEnd) + 1);
    let end: number;
    if (text[i] === '"') end = stringEnd(text, i);
    else if (text[i] === '{' || text[i] === '[') return undefined;
    else {
      end = i;
      while (end < text.length && !',} \t\r\n'.includes(text[end]!)) end++;
    }
    const literal = text.slice(i, end);
    // Kept only when JSON.stringify would print another number (so -2^53, exact as a double, is not).
    if (/^-?\d{16,}$/.test(literal) && String(Number(literal)) !== literal) found.set(key, literal);
    else found.delete(key);
    i = skipSpace(text, end);
    if (text[i] === ',') i = skipSpace(text, i + 1);
  }
  return found;
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && ' \t\r\n'.includes(text[i]!)) i++;
  return i;
}

function stringEnd(text: string, open: number): number {
  for (let i = open + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i + 1;
  }
  return text.length;
}
