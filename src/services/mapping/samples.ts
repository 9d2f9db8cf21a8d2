/**
 * Value-kind inference from example values, and how compatible two kinds are.
 * Used to confirm or veto a name-based match ("Phone" whose samples are
 * e-mail addresses is not the phone column).
 */

export const VALUE_KINDS = [
  'email', 'url', 'phone', 'date', 'datetime', 'integer', 'decimal', 'number', 'money', 'percent', 'boolean',
  'country', 'currency', 'postal', 'uuid', 'iban', 'bic', 'gender', 'ip', 'gtin', 'id', 'text',
] as const;
export type ValueKind = (typeof VALUE_KINDS)[number];

const COUNTRY_CODES = new Set(
  ('AD AE AF AG AI AL AM AO AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BM BN BO BR BS BT BW BY BZ CA CD CF CG CH ' +
    'CI CL CM CN CO CR CU CV CY CZ DE DJ DK DM DO DZ EC EE EG ER ES ET FI FJ FM FO FR GA GB GD GE GH GI GL GM GN GR GT ' +
    'GU GW GY HK HN HR HT HU ID IE IL IN IQ IR IS IT JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT ' +
    'LU LV LY MA MC MD ME MG MH MK ML MM MN MO MT MU MV MW MX MY MZ NA NE NG NI NL NO NP NR NZ OM PA PE PG PH PK PL PR ' +
    'PS PT PW PY QA RO RS RU RW SA SB SC SD SE SG SI SK SL SM SN SO SR SS ST SV SY SZ TD TG TH TJ TL TM TN TO TR TT TV ' +
    'TW TZ UA UG UK US UY UZ VA VC VE VN VU WS XK YE ZA ZM ZW DEU FRA USA GBR ITA ESP NLD PRT AUT CHE BEL CAN AUS').split(' '),
);
const CURRENCIES = new Set(
  'EUR USD GBP CHF JPY CNY CAD AUD NZD SEK NOK DKK PLN CZK HUF RON BGN TRY INR BRL MXN ZAR SGD HKD KRW RUB ILS AED SAR'.split(' '),
);

const MONTH = '(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*';
const DATE_PATTERNS = [
  /^\d{4}[-/.]\d{1,2}[-/.]\d{1,2}$/,
  /^\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}$/,
  new RegExp(`^\\d{1,2}\\.? ${MONTH}\\.? \\d{2,4}$`, 'i'),
  new RegExp(`^${MONTH}\\.? \\d{1,2},? \\d{4}$`, 'i'),
  /^\d{4}[-/]\d{1,2}$/,
];
const TIME_RE = /\d{1,2}:\d{2}(:\d{2})?(\.\d+)?\s*([ap]\.?m\.?)?(z|[+-]\d{2}:?\d{2})?(\s*\(?[a-z]{2,5}\)?)?$/i;
const BOOLEAN_RE = /^(true|false|yes|no|y|n|ja|nein|oui|non|si|sí|sim|não|nao|wahr|falsch|vrai|faux|x|✓|checked|unchecked)$/i;
const GENDER_RE = /^(m|f|w|d|male|female|man|woman|men|women|männlich|weiblich|divers|homme|femme|hombre|mujer|maschio|femmina|masculino|feminino|vrouw|other|non-binary)$/i;

function isValidGtin(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length - 1; i++) {
    const d = digits.charCodeAt(digits.length - 2 - i) - 48;
    sum += i % 2 === 0 ? d * 3 : d;
  }
  return (10 - (sum % 10)) % 10 === digits.charCodeAt(digits.length - 1) - 48;
}

/** Kind of one value; the order matters (most specific first). */
export function inferValueKind(raw: string): ValueKind | null {
  const v = raw.trim();
  if (v.length === 0) return null;
  if (/^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/.test(v)) return 'email';
  if (/^(https?:\/\/|www\.)\S+$/i.test(v)) return 'url';
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v)) return 'uuid';
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(v)) return 'ip';
  const compact = v.replace(/\s+/g, '');
  if (/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(compact)) return 'iban';
  if (/^\d{8}$|^\d{12,14}$/.test(v) && isValidGtin(v)) return 'gtin';
  if (/^[-+]?\d+([.,]\d+)?\s?%$/.test(v)) return 'percent';
  const money = /^[-+(]?(\p{Sc}|[A-Z]{3})?\s?[-+]?\d[\d.,'\s]*\)?\s?(\p{Sc}|[A-Z]{3})?$/u.exec(v);
  const code = money?.[1] ?? money?.[2];
  if (money && code && (!/^[A-Z]{3}$/.test(code) || CURRENCIES.has(code))) return 'money';
  if (/^[-+]?\d{1,3}([,.']\d{3})+$|^[-+]?\d+$/.test(v)) return /^0\d{6,}$/.test(v) ? 'phone' : 'integer';
  if (/^[-+]?\d*[.,]\d+$/.test(v)) return 'decimal';
  if (DATE_PATTERNS.some((re) => re.test(v))) return 'date';
  if (/^\+?[\d\s().\-/]{7,22}$/.test(v) && (v.match(/\d/g)?.length ?? 0) >= 7) return 'phone';
  const datePart = v.replace(TIME_RE, '').replace(/[T,\s]+$/, '');
  if (datePart !== v && (datePart === '' || DATE_PATTERNS.some((re) => re.test(datePart)) || /\d{4}$/.test(datePart)))
    return 'datetime';
  if (/^[a-z]{3} [a-z]{3} \d{1,2} \d{1,2}:\d{2}/i.test(v)) return 'datetime';
  if (BOOLEAN_RE.test(v)) return 'boolean';
  if (GENDER_RE.test(v)) return 'gender';
  if (CURRENCIES.has(v)) return 'currency';
  if (COUNTRY_CODES.has(v)) return 'country';
  if (/^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(v)) return 'bic';
  if (/^[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}$|^\d{4} ?[A-Z]{2}$|^[A-Z]\d[A-Z] ?\d[A-Z]\d$/i.test(v)) return 'postal';
  return 'text';
}

// Kinds that subsume each other when samples disagree, most general last.
const MERGE: Partial<Record<ValueKind, ValueKind>> = { integer: 'decimal', decimal: 'number', date: 'datetime' };

// Markers of a missing value: they stand in any column ("Yes, No, Unknown" is a flag), so they say nothing of its kind.
const MISSING_VALUE = /^(unknown|not reported|not available|not applicable|n\/?a|none|null|missing|unk|-|\?)$/i;

/**
 * Dominant kind of a sample list: the kind (or a merged kind) of at least 70% of the values, missing-value
 * markers left out.
 */
export function inferSamplesKind(samples: readonly string[] | undefined): ValueKind | null {
  if (!samples) return null;
  const counts = new Map<ValueKind, number>();
  let total = 0;
  for (const s of samples) {
    if (MISSING_VALUE.test(s.trim())) continue;
    const k = inferValueKind(s);
    if (k === null) continue;
    total++;
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  if (total === 0) return null;
  const dominant = () => [...counts].find(([, n]) => n >= total * 0.7)?.[0];
  let found = dominant();
  // Widen one kind at a time (integer -> decimal -> number, date -> datetime) until one dominates.
  for (const [from, to] of Object.entries(MERGE) as [ValueKind, ValueKind][]) {
    if (found) break;
    counts.set(to, (counts.get(to) ?? 0) + (counts.get(from) ?? 0));
    counts.delete(from);
    found = dominant();
  }
  return found ?? null;
}

const NUMERIC = new Set<ValueKind>(['integer', 'decimal', 'number', 'money', 'percent']);
// Free text next to one of these means the values are not what the name says.
const STRICT = new Set<ValueKind>([
  'email', 'url', 'phone', 'date', 'datetime', 'iban', 'uuid', 'money', 'percent', 'integer', 'decimal', 'number', 'gtin', 'ip',
]);
const PAIRS: Record<string, number> = {
  'decimal|integer': 0.8, 'integer|number': 1, 'decimal|number': 1, 'money|number': 0.8, 'decimal|money': 0.8,
  'integer|money': 0.6, 'decimal|percent': 0.7, 'number|percent': 0.7, 'date|datetime': 0.9, 'integer|postal': 0.6,
  'integer|phone': 0.3, 'id|integer': 0.8, 'id|text': 0.7, 'id|uuid': 1, 'gtin|integer': 0.6, 'gtin|id': 0.6,
  'boolean|integer': 0.3, 'gender|text': 0.4, 'country|text': 0.5, 'currency|text': 0.3, 'bic|text': 0.4, 'postal|text': 0.5,
  // Integers next to text are often the codes of a coded column whose other copy holds the labels ("1" / "smoker"):
  // no veto, no support.
  'integer|text': 0.3,
  'id|postal': 0.3, 'boolean|text': 0.4, 'decimal|gtin': 0.3, 'gtin|number': 0.5, 'id|number': 0.6, 'date|integer': 0.2,
};

/** Compatibility of two value kinds in [0, 1]: 1 same kind, 0 clearly different data. */
export function kindCompatibility(a: ValueKind, b: ValueKind): number {
  if (a === b) return 1;
  const key = a < b ? `${a}|${b}` : `${b}|${a}`;
  const known = PAIRS[key];
  if (known !== undefined) return known;
  if (a === 'text' || b === 'text') return STRICT.has(a === 'text' ? b : a) ? 0.1 : 0.5;
  if (NUMERIC.has(a) && NUMERIC.has(b)) return 0.5;
  return 0;
}

/** The first `max` distinct words of normalised sample values ("stage iia" -> stage, iia). */
export function valueWords(values: Iterable<string>, max: number): Set<string> {
  const words = new Set<string>();
  for (const v of values)
    for (const w of v.match(/[\p{L}\p{N}]+/gu) ?? []) {
      if (words.size === max) return words;
      words.add(w);
    }
  return words;
}

function categorical(kind: ValueKind | null): boolean {
  return kind === 'text' || kind === 'boolean';
}

/**
 * Two text columns, or a text column and a flag, each shown with at least two distinct values, no word in
 * common ("uploading, uploaded" against "asian, western"; "Extramural, Intramural" against "Yes, No"):
 * different data more often than not. A single example value (a template's "Jane" against a file's "Lucía")
 * says too little; two flags ("yes, no" against "true, false") are the same kind of data whatever their words.
 */
export function disjointValues(a: { kind: ValueKind | null; values: ReadonlySet<string>; words: ReadonlySet<string> }, b: typeof a): boolean {
  if (a.values.size < 2 || b.values.size < 2 || !categorical(a.kind) || !categorical(b.kind)) return false;
  if (a.kind === 'boolean' && b.kind === 'boolean') return false;
  for (const w of a.words) if (b.words.has(w)) return false;
  return true;
}

/** Per call: for each normalised sample value, the most headers of one list that carry it. */
export type ValueSpread = Map<string, number>;

/** Counts, per value, the headers of each list carrying it: one pass over the samples the call sent. */
export function valueSpread(schema: Iterable<ReadonlySet<string>>, file: Iterable<ReadonlySet<string>>): ValueSpread {
  const spread: ValueSpread = new Map();
  for (const side of [schema, file]) {
    const count = new Map<string, number>();
    for (const values of side) for (const v of values) count.set(v, (count.get(v) ?? 0) + 1);
    for (const [v, n] of count) spread.set(v, Math.max(spread.get(v) ?? 0, n));
  }
  return spread;
}

/**
 * Shared sample values of two columns, each weighted by its rarity (1 / the most headers of one list that
 * carry it), over the smaller column's distinct values: "Stage IIA" shared by one header a side is strong
 * evidence, "Unknown" or "Yes" under dozens of headers is none (0 when either column has no samples).
 */
export function sampleOverlap(a: ReadonlySet<string>, b: ReadonlySet<string>, spread: ValueSpread): number {
  if (a.size === 0 || b.size === 0) return 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let shared = 0;
  for (const v of small) if (large.has(v)) shared += 1 / (spread.get(v) ?? 1);
  return shared / small.size;
}
