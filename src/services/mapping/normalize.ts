/**
 * Text normalisation for header labels: folding (Unicode NFKD, accents, case),
 * word splitting (camelCase, snake_case, kebab, punctuation, brackets, digits),
 * abbreviation expansion, unit extraction, stop words and a light multilingual
 * stemmer. Pure: the language data comes in as `NormalizeRules` (built from
 * vocabulary.json by concepts.ts) so this module holds no word lists itself.
 */

export interface NormalizeRules {
  stopWords: ReadonlySet<string>;
  /** Keys are one or two words ("qty", "number of"); values are replacement words. */
  abbreviations: ReadonlyMap<string, readonly string[]>;
  /** Measurement and currency units recognised anywhere ("kg", "usd"). */
  units: ReadonlySet<string>;
  /** Short units that are ordinary words outside brackets ("in", "m", "s"). */
  bracketUnits: ReadonlySet<string>;
  /** Symbols that carry meaning ("#" -> "number", "%" -> "percent"). */
  symbols: ReadonlyMap<string, string>;
}

export interface NormalizedHeader {
  /** Content words after abbreviation expansion, in order (not stemmed). */
  tokens: string[];
  /** Standalone numbers ("Address 2" -> "2"), compared separately. */
  numbers: string[];
  /** Units found in the label ("kg", "eur"). */
  units: string[];
  /** Folded, lower-cased label with single spaces, for character similarity. */
  text: string;
}

// Letters NFKD does not decompose into a base letter plus a combining mark.
const SPECIAL_LETTERS: Record<string, string> = {
  ß: 'ss', ẞ: 'SS', ø: 'o', Ø: 'O', æ: 'ae', Æ: 'AE', œ: 'oe', Œ: 'OE',
  ł: 'l', Ł: 'L', đ: 'd', Đ: 'D', ð: 'd', þ: 'th', ı: 'i', '°': 'o',
};
const SPECIAL_RE = new RegExp(`[${Object.keys(SPECIAL_LETTERS).join('')}]`, 'g');
// One pass over the string: CJK characters one by one (no spaces between words),
// acronyms before a capitalised word ("HTMLParser"), capitalised or lower-case runs, digit runs.
const WORD_RE =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]|\p{Lu}+(?=\p{Lu}\p{Ll})|\p{Lu}?[\p{Ll}\p{Lo}\p{Lm}]+|\p{Lu}+|\p{N}+/gu;

/** NFKD, strip combining accents and map special letters; case is kept. */
export function foldText(text: string): string {
  if (/^[\x20-\x7e]*$/.test(text)) return text; // plain ASCII: nothing to fold
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(SPECIAL_RE, (c) => SPECIAL_LETTERS[c] ?? c);
}

/** Split a folded string into lower-case words at case, digit and punctuation boundaries. */
export function splitWords(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(WORD_RE)) out.push(m[0].toLowerCase());
  return out;
}

/**
 * Light stemmer shared by EN/FR/ES/IT/PT/NL/DE plurals: removes a final "s"
 * ("ies" -> "y") but keeps words ending in ss/us/is, which are rarely plurals.
 */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(ss|us|is)$/.test(word)) return word;
  if (word.endsWith('s')) return word.slice(0, -1);
  return word;
}

function expandAbbreviations(words: string[], rules: NormalizeRules): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const pair = i + 1 < words.length ? rules.abbreviations.get(`${words[i]} ${words[i + 1]}`) : undefined;
    if (pair) {
      out.push(...pair);
      i++;
      continue;
    }
    const single = rules.abbreviations.get(words[i]!);
    if (single) out.push(...single);
    else out.push(words[i]!);
  }
  return out;
}

/** Replace meaningful symbols by words, padded so they split cleanly. */
function replaceSymbols(text: string, rules: NormalizeRules): string {
  let out = text;
  for (const [symbol, word] of rules.symbols) if (out.includes(symbol)) out = out.split(symbol).join(` ${word} `);
  return out;
}

/** Normalise one header label into content tokens, numbers and units. */
export function normalizeHeader(label: string, rules: NormalizeRules): NormalizedHeader {
  // Dotted acronyms are one word: "D.O.B." -> "DOB", "P. O. #" -> "PO #".
  const folded = foldText(label).replace(/\b([A-Za-z])\.\s?(?=[A-Za-z]\b)/g, '$1');
  const withSymbols = replaceSymbols(folded, rules);
  const tokens: string[] = [];
  const numbers: string[] = [];
  const units: string[] = [];
  // Bracketed parts ("Weight (kg)", "Amount [EUR]") are where short units live.
  const parts = /[([{]/.test(withSymbols) ? withSymbols.split(/([([{][^)\]}]*[)\]}]?)/) : [withSymbols];
  for (const part of parts) {
    const inBrackets = /^[([{]/.test(part);
    const words = splitWords(part).filter((w) => {
      if (!rules.units.has(w) && !(inBrackets && rules.bracketUnits.has(w))) return true;
      units.push(w);
      return false;
    });
    for (const word of expandAbbreviations(words, rules)) {
      if (/^\d+$/.test(word)) numbers.push(String(Number(word)));
      else if (!rules.stopWords.has(word)) tokens.push(word);
    }
  }
  return { tokens, numbers, units, text: splitWords(folded).join(' ') };
}
