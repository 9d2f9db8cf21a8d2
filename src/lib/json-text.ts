// The characters and small searches of the scans that read JSON texts without parsing them whole (the import
// body's splitter, CanonicalRowScanner, DeclaredRowText, the CSV export's flat rows).

export const QUOTE = 34;
export const BACKSLASH = 92;
export const COMMA = 44;
export const COLON = 58;
export const OPEN_BRACE = 123;
export const CLOSE_BRACE = 125;
export const OPEN_BRACKET = 91;
export const CLOSE_BRACKET = 93;
export const MINUS = 45;
export const DOT = 46;
export const ZERO = 48;
const NINE = 57;

/** Where `search` is in `text` from `from` on; Infinity when it is not. */
export function nextIndexFrom(text: string, search: string, from: number): number {
  const at = text.indexOf(search, from);
  return at < 0 ? Infinity : at;
}

export function isDigit(code: number): boolean {
  return code >= ZERO && code <= NINE;
}

/** After the closing quote of the key whose text starts at `keyStart` when it is `known` (the last row's key there), else -1. */
export function knownKeyEnd(text: string, keyStart: number, known: string | undefined): number {
  return known !== undefined && text.startsWith(known, keyStart) && text.charCodeAt(keyStart + known.length) === QUOTE ? keyStart + known.length + 1 : -1;
}
