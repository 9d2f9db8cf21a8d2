import { en, type Messages } from './en';
import { LOCALES } from './locales';

/** A message key of the English table (every locale has them all: the type makes a missing one an error). */
export type MessageKey = keyof Messages;
export type Params = Record<string, string | number>;

/** The element's strings in one locale: messages, numbers and dates through Intl. */
export interface Translator {
  /** The BCP 47 tag Intl formats with (`de-CH`), its table chosen by its language (`de`). */
  readonly locale: string;
  /** The message with `{name}` replaced; numbers formatted for the locale; a plural message chosen by `count`. */
  t(key: MessageKey, params?: Params): string;
  number(value: number): string;
  /** `0.93` as `93%`. */
  percent(fraction: number): string;
  /** `a, b and c` in the locale's words. */
  list(items: string[]): string;
  /** Measures listed (`120 new, 14 changed, 3 missing`), as the locale lists them. */
  units(items: string[]): string;
  /** An ISO date (`2025-04-13`) as the locale writes it, long form (`13 April 2025`). */
  date(iso: string): string;
  /** A file size as people read it (`1.2 MB`, `1,2 MB`). */
  size(bytes: number): string;
}

const SIZE_UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;

/**
 * The translator for the first of `wanted` (the `locale` attribute, then the browser's languages) whose
 * language has a table; English otherwise.
 */
export function createTranslator(wanted: readonly string[]): Translator {
  const found = wanted.map((tag) => ({ tag, table: LOCALES[tag.toLowerCase().split('-')[0]!] })).find((item) => item.table !== undefined && validTag(item.tag));
  const locale = found?.tag ?? 'en';
  const table: Messages = found?.table ?? en;
  // Every fraction digit: a rule's bound (`at least 0.0005`) is shown exactly.
  const numbers = new Intl.NumberFormat(locale, { maximumFractionDigits: 20 });
  const plurals = new Intl.PluralRules(locale);
  const number = (value: number) => numbers.format(value);
  const percents = new Intl.NumberFormat(locale, { style: 'percent' });
  const lists = new Intl.ListFormat(locale, { type: 'conjunction' });
  const units = new Intl.ListFormat(locale, { type: 'unit', style: 'long' });
  const dates = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' });
  return {
    locale,
    number,
    percent: (fraction) => percents.format(fraction),
    list: (items) => lists.format(items),
    units: (items) => units.format(items),
    date: (iso) => dates.format(new Date(iso.length === 10 ? `${iso}T00:00:00Z` : iso)),
    size(bytes) {
      let unit = 0;
      let value = bytes;
      while (value >= 1024 && unit < SIZE_UNITS.length - 1) {
        value /= 1024;
        unit += 1;
      }
      return new Intl.NumberFormat(locale, { style: 'unit', unit: SIZE_UNITS[unit], unitDisplay: 'short', maximumFractionDigits: unit === 0 ? 0 : 1 }).format(value);
    },
    t(key, params = {}) {
      const message = table[key];
      const text = typeof message === 'string' ? message : (message[plurals.select(Number(params.count ?? 0)) as keyof typeof message] ?? message.other);
      return text.replace(/\{(\w+)\}/g, (whole, name: string) => {
        const value = params[name];
        return value === undefined ? whole : typeof value === 'number' ? number(value) : value;
      });
    },
  };
}

function validTag(tag: string): boolean {
  try {
    return Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    return false;
  }
}
