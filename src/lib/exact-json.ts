// Rows are promised "stored and returned exactly", but JSON.parse turns 12345678901234567890 into
// 12345678901234567000. A row whose text holds a run of 16+ digits (the only way to write an integer past
// 2^53) takes a slower path that keeps such integer literals as their source text.
//
// A row parsed from its own text (parseRowJson: large bodies, NDJSON lines, files) keeps that text, and when
// the text is exactly what JSON.stringify would print for the parsed row (what every JSON encoder sends), it is
// stored as it came: checking that costs a regular expression test and a count, a third of a JSON.stringify.

const LONG_DIGITS = /\d{16}/;
const SOURCE_TEXT = Symbol('source JSON text');

/** A parsed row that remembers the text it was parsed from (a symbol-keyed member: for-in, Object.keys and JSON.stringify skip it). */
type WithSourceText = { [SOURCE_TEXT]?: string };

/** False when no integer in `text` can be beyond 2^53 (no run of 16 digits): JSON.parse keeps every number exact. */
export function mayHoldBigIntegers(text: string): boolean {
  return LONG_DIGITS.test(text);
}

/** JSON.parse for one row; an object remembers its text (rowJsonText stores it, or its big integers, exactly). */
export function parseRowJson(text: string): unknown {
  const value: unknown = JSON.parse(text);
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) (value as WithSourceText)[SOURCE_TEXT] = text;
  return value;
}

/**
 * The JSON text to store for a row: the text it was parsed from when JSON.stringify would print exactly that
 * (`keys`: how many own enumerable keys the row has, which rules out duplicate keys), its text with integers
 * beyond 2^53 kept as sent when it has any, else JSON.stringify's.
 */
export function rowJsonText(row: object, keys?: number): string {
  const source = (row as WithSourceText)[SOURCE_TEXT];
  if (source === undefined) return JSON.stringify(row);
  if (keys !== undefined && isStringifyOutput(source, keys)) return source;
  if (LONG_DIGITS.test(source)) {
    const literals = bigIntegerLiterals(source);
    if (literals !== undefined && literals.size > 0) return rowText(row as Record<string, unknown>, literals);
  }
  return JSON.stringify(row);
}

// What JSON.stringify prints for a flat object of strings, numbers, booleans and null, narrowed to what can be
// told without parsing: no white space; in strings only the escapes it writes (\" \\ \b \f \n \r \t; \u
// sequences go the slow way), no lone surrogate, and no `\":` (so a `":` ends a key or opens a string that
// starts with a colon: counting them never counts fewer than the members); no key that is an
// array index (V8 lists those first); numbers of at most 15 significant digits written the way String()
// writes them (no exponent, no leading or trailing zero, no -0, no six zeros after the point), which a double
// holds exactly as written.
const CHARS = String.raw`(?:[^"\\\ud800-\udfff]|[\ud800-\udbff][\udc00-\udfff]|\\[\\bfnrt]|\\"(?!:))*`;
const KEY = String.raw`"(?!\d+")${CHARS}"`;
const NUMBER = String.raw`(?!-0[,}])-?(?=[\d.]{1,16}[,}])(?:0|[1-9]\d{0,14})(?:\.(?!0{6})\d*[1-9])?`;
const MEMBER = `${KEY}:(?:"${CHARS}"|${NUMBER}|true|false|null)`;
const STRINGIFY_OUTPUT = new RegExp(`^\\{(?:${MEMBER}(?:,${MEMBER})*)?\\}$`);
/** The same for exactly n members, n up to MAX_COUNTED_KEYS (compiled when first needed). */
const MAX_COUNTED_KEYS = 64;
const stringifyOutputOf: RegExp[] = [];

/** True when `text` is exactly what JSON.stringify prints for the row it parses to, which has `keys` keys. */
export function isStringifyOutput(text: string, keys: number): boolean {
  // A duplicate key is one member more than the parsed row has keys: the members are counted too.
  if (keys <= MAX_COUNTED_KEYS) {
    const exact = (stringifyOutputOf[keys] ??= new RegExp(keys === 0 ? '^\\{\\}$' : `^\\{${MEMBER}(?:,${MEMBER}){${keys - 1}}\\}$`));
    return exact.test(text);
  }
  if (!STRINGIFY_OUTPUT.test(text)) return false;
  // (A string opening with `:` counts one more: never fewer than the members.)
  let members = 0;
  for (let at = text.indexOf('":'); at !== -1; at = text.indexOf('":', at + 2)) members++;
  return members === keys;
}

/**
 * A stored row's cells, with integers beyond 2^53 as bigints (exact, and still numbers rather than text)
 * instead of the nearest double: for encoders that print cells (CSV).
 */
export function parseStoredRow(text: string): Record<string, unknown> {
  const cells = JSON.parse(text) as Record<string, unknown>;
  if (!LONG_DIGITS.test(text)) return cells;
  for (const [key, literal] of bigIntegerLiterals(text) ?? []) {
    // defineProperty: a `__proto__` column is an own cell, never the prototype.
    Object.defineProperty(cells, key, { value: BigInt(literal), enumerable: true, configurable: true, writable: true });
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
