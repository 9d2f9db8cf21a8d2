import { isSupportedCountry, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';

const PHONE_TEXT = /^[\d\s()+\-.]+$/;
/** Distinct texts a phone field remembers the reading of before it starts again (bounded memory). */
const MEMO_SIZE = 4096;
/** Repeats a full memo must have had to be kept: below, a miss costs more than the hits save. */
const MEMO_KEPT_HITS = MEMO_SIZE / 16;
/** Longer texts are read each time: the memo holds at most MEMO_SIZE short strings, whatever the cells hold. */
const MEMO_TEXT_LENGTH = 40;

export function isPhoneCountry(code: string): boolean {
  return /^[A-Z]{2}$/.test(code) && isSupportedCountry(code);
}

/**
 * A phone field's reading, compiled once per import: a text's E.164 form (`+14155550123`), or undefined when it
 * is no valid number. A number without its international prefix is read in `defaultCountry`; without one, it is
 * refused. A reading costs ~4.3 µs in the bundles, which take libphonenumber-js's es6-modern build (no Babel
 * helpers) and compile its RegExps once (scripts/phone-regexps.mjs; ~7 µs with its es6 build, more as published,
 * under tsx), so a field remembers the readings of the texts it has seen (a column repeats an office's number), up
 * to MEMO_SIZE at a time, and stops once a full memo was hardly ever asked twice.
 */
export function compilePhone(defaultCountry: string | undefined): (text: string) => string | undefined {
  let memo: Map<string, string | undefined> | undefined = new Map();
  let hits = 0;
  return (text) => {
    if (memo === undefined || text.length > MEMO_TEXT_LENGTH) return phoneE164(text, defaultCountry);
    const known = memo.get(text);
    if (known !== undefined || memo.has(text)) {
      hits++;
      return known;
    }
    const e164 = phoneE164(text, defaultCountry);
    if (memo.size >= MEMO_SIZE) {
      memo = hits >= MEMO_KEPT_HITS ? new Map() : undefined;
      hits = 0;
    }
    memo?.set(text, e164);
    return e164;
  };
}

function phoneE164(text: string, defaultCountry: string | undefined): string | undefined {
  // Only digits and the punctuation numbers are written with: letters (vanity numbers) and `/` (dates) are refused.
  if (!PHONE_TEXT.test(text)) return undefined;
  const parsed = parsePhoneNumberFromString(text, defaultCountry as CountryCode | undefined);
  return parsed !== undefined && parsed.isValid() ? parsed.number : undefined;
}
