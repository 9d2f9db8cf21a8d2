/**
 * Loads vocabulary.json once (validated with zod) and turns header labels into
 * features: concept ids (multilingual synonyms, phrases, compounds, typos),
 * qualifiers (billing/shipping, home/work, net/gross, ...) and left-over tokens.
 */
import { z } from 'zod';
import raw from './vocabulary.json' with { type: 'json' };
import english from './english-words.json' with { type: 'json' };
import { normalizeHeader, stem, type NormalizeRules } from './normalize';
import { editDistance } from './similarity';
import { VALUE_KINDS, type ValueKind } from './samples';

const LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'pt', 'nl'] as const;
// Languages covered for the common concepts only (Chinese: traditional and simplified forms).
const PARTIAL_LANGUAGES = ['zh'] as const;
const Terms = z.object({
  ...(Object.fromEntries(LANGUAGES.map((l) => [l, z.array(z.string().min(1)).min(1)])) as Record<(typeof LANGUAGES)[number], z.ZodArray<z.ZodString>>),
  ...(Object.fromEntries(PARTIAL_LANGUAGES.map((l) => [l, z.array(z.string().min(1)).min(1).optional()])) as Record<
    (typeof PARTIAL_LANGUAGES)[number],
    z.ZodOptional<z.ZodArray<z.ZodString>>
  >),
});
const Id = z.string().regex(/^[a-z0-9_]+$/);
const VocabularySchema = z.object({
  version: z.literal(1),
  languages: z.array(z.enum([...LANGUAGES, ...PARTIAL_LANGUAGES])),
  stopWords: z.array(z.string()),
  units: z.array(z.string()),
  bracketUnits: z.array(z.string()),
  symbols: z.record(z.string(), z.string()),
  abbreviations: z.record(z.string(), z.string().min(1)),
  qualifiers: z.array(
    z.object({
      id: Id,
      family: Id,
      terms: Terms,
      /** Score factor when only one header carries this qualifier (default 0.9). */
      unqualifiedFactor: z.number().gt(0).max(1).optional(),
    }),
  ),
  related: z.array(z.tuple([Id, Id, z.number().gt(0).lt(1)])),
  concepts: z.array(
    z.object({
      id: Id,
      terms: Terms,
      weight: z.number().gt(0).max(2).optional(),
      domain: Id.optional(),
      filler: z.boolean().optional(),
      guard: z.boolean().optional(),
      kind: z.enum(VALUE_KINDS).optional(),
    }),
  ),
});
export type Vocabulary = z.infer<typeof VocabularySchema>;

/** The parsed vocabulary; throws at import if the data file is malformed. */
export const vocabulary: Vocabulary = VocabularySchema.parse(raw);

export const normalizeRules: NormalizeRules = {
  stopWords: new Set(vocabulary.stopWords),
  abbreviations: new Map(Object.entries(vocabulary.abbreviations).map(([k, v]) => [k, v.split(' ')])),
  units: new Set(vocabulary.units),
  bracketUnits: new Set(vocabulary.bracketUnits),
  symbols: new Map(Object.entries(vocabulary.symbols)),
};

/** A reference into the vocabulary: concept index (>= 0) or qualifier index (encoded as -1 - i). */
type Ref = number;
const concepts = vocabulary.concepts;
const qualifiers = vocabulary.qualifiers;
export const conceptCount = concepts.length;

/** Normalised lookup keys of a vocabulary term: tokens joined by spaces. */
export function termKey(term: string): string {
  return normalizeHeader(term, normalizeRules).tokens.join(' ');
}

// Exact keys win over stemmed ones, which win over concatenations ("firstname").
const exact = new Map<string, Ref>();
const stemmed = new Map<string, Ref>();
const joined = new Map<string, Ref>();
/** Words of multi-word terms, so a stray "first" partly matches first_name. */
export const partialWords = new Map<string, Set<number>>();
function indexTerm(term: string, ref: Ref): void {
  const tokens = normalizeHeader(term, normalizeRules).tokens;
  if (tokens.length === 0) return;
  const key = tokens.join(' ');
  if (!exact.has(key)) exact.set(key, ref);
  const s = tokens.map(stem).join(' ');
  if (!stemmed.has(s)) stemmed.set(s, ref);
  if (tokens.length > 1) {
    const j = tokens.join('');
    if (!joined.has(j)) joined.set(j, ref);
    if (ref >= 0)
      for (const w of tokens) if (w.length > 2) (partialWords.get(stem(w)) ?? partialWords.set(stem(w), new Set()).get(stem(w))!).add(ref);
  }
}
concepts.forEach((c, i) => Object.values(c.terms).flat().forEach((t) => indexTerm(t, i)));
qualifiers.forEach((q, i) => Object.values(q.terms).flat().forEach((t) => indexTerm(t, -1 - i)));

// Each concept's English terms as letters only ("postal code" -> "postalcode"), for reading short abbreviations.
const englishLetters: string[][] = concepts.map((c) => [...new Set(c.terms.en.map((t) => t.toLowerCase().replace(/[^a-z]/g, '')))]);

/** `s` is `l` with letters left out, the first kept ("ot" / "overtime", "st" / "state"). */
function abbreviationOf(s: string, l: string): boolean {
  if (s.length >= l.length || s[0] !== l[0]) return false;
  let i = 1;
  for (let j = 1; j < l.length && i < s.length; j++) if (s.charCodeAt(i) === l.charCodeAt(j)) i++;
  return i === s.length;
}

const abbreviationCache = new Map<string, ReadonlySet<number> | null>();
/**
 * The concepts a word of two or three letters that the vocabulary does not know ("OT", "ST") may abbreviate:
 * those with an English term in which its letters appear in order, starting with the first ("OT Hrs" /
 * "Overtime hours"); null for any other word. The matcher reads it so only against a concept of the header it
 * is compared with, so the word never picks a reading by itself. Longer cut-off words are not read this way
 * (`diag` -> diagnosis lost more pairs than it found, docs/header-mapping.md).
 */
function abbreviationsOf(word: string): ReadonlySet<number> | null {
  if (word.length < 2 || word.length > 3 || !/^[a-z]+$/.test(word)) return null;
  let set = abbreviationCache.get(word);
  if (set === undefined) {
    const found = new Set<number>();
    englishLetters.forEach((terms, c) => {
      if (terms.some((t) => abbreviationOf(word, t))) found.add(c);
    });
    set = found.size > 0 ? found : null;
    abbreviationCache.set(word, set); // at most 26^2 + 26^3 words
  }
  return set;
}

/** Factor applied when only one header carries the qualifier ("Mailing street" vs "Street"). */
export const unqualifiedFactor = new Map(qualifiers.map((q) => [q.id, q.unqualifiedFactor ?? 0.9]));

const conceptIndex = new Map(concepts.map((c, i) => [c.id, i]));
/** Symmetric concept relatedness, keyed a * conceptCount + b. */
export const relatedness = new Map<number, number>();
for (const [a, b, sim] of vocabulary.related) {
  const ia = conceptIndex.get(a);
  const ib = conceptIndex.get(b);
  if (ia === undefined || ib === undefined) throw new Error(`vocabulary.related names unknown concept ${a} or ${b}`);
  relatedness.set(ia * conceptCount + ib, sim);
  relatedness.set(ib * conceptCount + ia, sim);
}

// Vocabulary keys by first letter, for typo repair of words and two-word phrases.
const keysByInitial = new Map<string, string[]>();
for (const k of exact.keys())
  if (k.length >= 4 && k.split(' ').length <= 2) (keysByInitial.get(k[0]!) ?? keysByInitial.set(k[0]!, []).get(k[0]!)!).push(k);

function lookup(key: string, stemmedKey = key.split(' ').map(stem).join(' ')): Ref | undefined {
  return exact.get(key) ?? stemmed.get(stemmedKey) ?? joined.get(key.replace(/ /g, ''));
}

/** "Lieferadresse" -> liefer + adresse; "Rechnungsadresse" -> rechnung(s) + adresse. */
function splitCompound(word: string, depth = 0): Ref[] | undefined {
  if (word.length < 6 || depth > 2) return undefined;
  for (let cut = word.length - 3; cut >= 3; cut--) {
    const head = word.slice(0, cut);
    const tail = word.slice(cut);
    const headRef = exact.get(head) ?? (head.endsWith('s') ? exact.get(head.slice(0, -1)) : undefined);
    if (headRef === undefined) continue;
    const tailRef = lookup(tail);
    if (tailRef !== undefined) return [headRef, tailRef];
    const rest = splitCompound(tail, depth + 1);
    if (rest) return [headRef, ...rest];
  }
  return undefined;
}

/** Same length, one adjacent pair swapped ("emial" / "email"). */
function isTransposition(a: string, b: string): boolean {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return i + 1 < a.length && a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
}

const typoCache = new Map<string, Ref | null>();
/** One-edit typo repair ("Emial", "Adress", "Frist name") when exactly one vocabulary key fits. */
function repairTypo(text: string): Ref | undefined {
  if (text.length < 5) return undefined;
  const cached = typoCache.get(text);
  if (cached !== undefined) return cached ?? undefined;
  let found: Ref | null = null;
  for (const k of keysByInitial.get(text[0]!) ?? []) {
    if (Math.abs(k.length - text.length) > 1 || editDistance(k, text, 1) > 1) continue;
    // A one-letter substitution in a short word is often another real word ("internal" / "interval").
    if (k.length === text.length && text.length < 10 && !isTransposition(k, text)) continue;
    const ref = exact.get(k)!;
    if (found !== null && found !== ref) {
      found = null;
      break;
    }
    found = ref;
  }
  if (typoCache.size > 50_000) typoCache.clear(); // bound memory on a long-running server
  typoCache.set(text, found);
  return found ?? undefined;
}

// Endings that database columns glue to the word they qualify ("itemid", "orderno", "valueuom").
const FIELD_SUFFIXES = ['id', 'no', 'nr', 'num', 'uom', 'qty', 'amt', 'time', 'date', 'name', 'code', 'type'].map((suffix) => {
  const ref = lookup(termKey(suffix));
  if (ref === undefined) throw new Error(`vocabulary.json no longer knows the field ending ${suffix}`);
  return { suffix, ref };
});

/**
 * "customerid" -> customer + id: a known word glued to a field ending. The head must be known too, or
 * ordinary words would split ("candidate" is not candi + date).
 */
function splitFieldSuffix(word: string): Ref[] | null {
  for (const { suffix, ref } of FIELD_SUFFIXES) {
    if (!word.endsWith(suffix) || word.length - suffix.length < 3) continue;
    const head = lookup(word.slice(0, -suffix.length));
    if (head !== undefined) return [head, ref];
  }
  return null;
}

/** A word the vocabulary does not know read as words it does: a compound of them, else a one-edit typo of one. */
export function guessWord(word: string): Ref[] | null {
  const compound = splitCompound(word);
  if (compound) return compound;
  const typo = repairTypo(word);
  return typo === undefined ? null : [typo];
}

/** The word and the dictionary forms it may be an inflection of ("pairs" -> "pair", "tested" -> "test"). */
export function englishForms(word: string): string[] {
  const forms = [word];
  if (word.endsWith('s')) forms.push(word.slice(0, -1));
  if (word.endsWith('es')) forms.push(word.slice(0, -2));
  if (word.endsWith('ies')) forms.push(`${word.slice(0, -3)}y`);
  for (const ending of ['ed', 'ing']) {
    if (!word.endsWith(ending)) continue;
    const base = word.slice(0, -ending.length);
    forms.push(base, `${base}e`);
    if (/(.)\1$/.test(base)) forms.push(base.slice(0, -1)); // "stopped" -> "stop"
  }
  return forms.filter((f) => f.length >= 3);
}

/**
 * English words the vocabulary does not know but would read by `guessWord` (english-words.json: WordNet
 * lemmas, kept to those, by scripts/english-words.ts). A dictionary word is a word, not a typo or a compound:
 * "pathologic" is not the French "pathologie" (diagnosis), "diameter" not the Spanish "dia" + "meter",
 * "aliquots" not a rate. Such misreadings cost most on lists from other domains than the vocabulary's.
 */
const englishWords: ReadonlySet<string> = new Set(english.words);

/**
 * An English inflection is read through its dictionary form when the vocabulary has it ("invoiced" -> "invoice",
 * "addresses" -> "address"; only forms that are dictionary words: "assigned" is not the French "assigne"); another
 * dictionary word stays unknown; any other word is guessed.
 */
function englishReading(word: string): Ref[] | null {
  const forms = englishForms(word).filter((f) => englishWords.has(f));
  for (const form of forms) {
    const ref = lookup(form);
    if (ref !== undefined) return [ref];
  }
  return forms.length > 0 ? null : guessWord(word);
}

const wordCache = new Map<string, Ref[] | null>();
/** Resolve a word outside any phrase: transliteration, then (unless it is an English word) compound split or typo repair. */
function resolveWord(word: string): Ref[] | null {
  const cached = wordCache.get(word);
  if (cached !== undefined) return cached;
  // ASCII transliterations of umlauts ("Waehrung") fold to the NFKD form ("wahrung").
  const umlaut = word.replace(/ae/g, 'a').replace(/oe/g, 'o').replace(/ue/g, 'u');
  const direct = umlaut !== word ? lookup(umlaut) : undefined;
  const refs = direct !== undefined ? [direct] : englishReading(word);
  if (wordCache.size > 50_000) wordCache.clear();
  wordCache.set(word, refs);
  return refs;
}

/** `Unit.concept` of a word the vocabulary does not know. */
export const TOKEN = -1;
/** `Unit.concept` of a qualifier ("shipping") standing as content. */
export const QUALIFIER = -2;

export interface Unit {
  /** Concept index, or TOKEN / QUALIFIER. */
  concept: number;
  /** Stemmed word for TOKEN, qualifier id for QUALIFIER, concept id otherwise. */
  token: string;
  weight: number;
  /** For a TOKEN of two or three letters, the concepts it may abbreviate (`abbreviationsOf`); null otherwise. */
  abbreviates: ReadonlySet<number> | null;
}

export interface HeaderFeatures {
  units: Unit[];
  /** Qualifier family -> qualifier ids present ("order_party" -> {"shipping"}). */
  qualifiers: Map<string, Set<string>>;
  guards: Set<number>;
  /** Standalone numbers joined by commas ("" when none): "Address 2" -> "2". */
  numbers: string;
  measureUnits: string[];
  /** Expected value kind from the concepts, if any concept declares one. */
  expectedKind: ValueKind | null;
  /** Share of the unit weight that the vocabulary did not understand (plain tokens). */
  residualShare: number;
  text: string;
}

const featureCache = new Map<string, HeaderFeatures>();
/** Analyse one label into concept units, qualifiers and leftover tokens (cached; treat as read-only). */
export function analyzeHeader(label: string): HeaderFeatures {
  let features = featureCache.get(label);
  if (features === undefined) {
    features = analyzeUncached(label);
    if (featureCache.size > 20_000) featureCache.clear(); // bound memory on a long-running server
    featureCache.set(label, features);
  }
  return features;
}

function analyzeUncached(label: string): HeaderFeatures {
  const norm = normalizeHeader(label, normalizeRules);
  const words = norm.tokens.length > 0 ? norm.tokens : norm.text.split(' ').filter((w) => w.length > 0);
  const stems = words.map(stem);
  const refs: Ref[] = [];
  const leftovers: string[] = [];
  for (let i = 0; i < words.length; ) {
    let matched = 0;
    for (let len = Math.min(5, words.length - i); len >= 1 && matched === 0; len--) {
      const key = words.slice(i, i + len).join(' ');
      let ref = lookup(key, stems.slice(i, i + len).join(' '));
      if (ref === undefined && len === 2) ref = lookup(`${words[i + 1]} ${words[i]}`) ?? repairTypo(key); // "Name, First"
      if (ref !== undefined) {
        refs.push(ref);
        matched = len;
      }
    }
    if (matched === 0) {
      const word = words[i]!;
      const resolved = /^\p{L}{4,}$/u.test(word) ? (resolveWord(word) ?? splitFieldSuffix(word)) : null;
      if (resolved) refs.push(...resolved);
      else leftovers.push(stem(word));
      matched = 1;
    }
    i += matched;
  }
  return buildFeatures(refs, leftovers, norm.numbers, norm.units, norm.text);
}

function buildFeatures(refs: Ref[], leftovers: string[], numberList: string[], measureUnits: string[], text: string): HeaderFeatures {
  const numbers = numberList.join(',');
  const conceptIds = new Set(refs.filter((r) => r >= 0));
  const qualifierMap = new Map<string, Set<string>>();
  for (const r of refs) {
    if (r >= 0) continue;
    const q = qualifiers[-1 - r]!;
    (qualifierMap.get(q.family) ?? qualifierMap.set(q.family, new Set()).get(q.family)!).add(q.id);
  }
  // A filler ("address", "name", "date") adds nothing next to a concept of its own domain.
  for (const c of [...conceptIds]) {
    const def = concepts[c]!;
    if (def.filler && [...conceptIds].some((o) => !concepts[o]!.filler && concepts[o]!.domain === def.domain))
      conceptIds.delete(c);
  }
  const units: Unit[] = [];
  const guards = new Set<number>();
  let expectedKind: ValueKind | null = null;
  for (const c of conceptIds) {
    const def = concepts[c]!;
    units.push({ concept: c, token: def.id, weight: def.weight ?? 1, abbreviates: null });
    if (def.guard) guards.add(c);
    // A date or time word decides the value kind ("Opt-in date" holds dates, not booleans).
    if (def.kind && (expectedKind === null || def.domain === 'time')) expectedKind = def.kind;
  }
  for (const t of new Set(leftovers)) units.push({ concept: TOKEN, token: t, weight: t.length >= 3 ? 1 : 0.3, abbreviates: abbreviationsOf(t) });
  // Qualifiers are also content: "Shipping" alone is the shipping charge column.
  for (const ids of qualifierMap.values()) for (const id of ids) units.push({ concept: QUALIFIER, token: id, weight: 0.5, abbreviates: null });
  let total = 0;
  let residual = 0;
  for (const u of units) {
    total += u.weight;
    if (u.concept === TOKEN) residual += u.weight;
  }
  const residualShare = total === 0 ? 1 : residual / total;
  return { units, qualifiers: qualifierMap, guards, numbers, measureUnits, expectedKind, residualShare, text };
}
