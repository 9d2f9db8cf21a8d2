import { isSupportedCountry, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';

const PHONE_TEXT = /^[\d\s()+\-.]+$/;

export function isPhoneCountry(code: string): boolean {
  return /^[A-Z]{2}$/.test(code) && isSupportedCountry(code);
}

/**
 * A phone number's E.164 form (`+14155550123`), or undefined when the text is no valid number. A number
 * without its international prefix is read in `defaultCountry`; without one, it is refused.
 */
export function phoneE164(text: string, defaultCountry: string | undefined): string | undefined {
  // Only digits and the punctuation numbers are written with: letters (vanity numbers) and `/` (dates) are refused.
  if (!PHONE_TEXT.test(text)) return undefined;
  const parsed = parsePhoneNumberFromString(text, defaultCountry as CountryCode | undefined);
  return parsed !== undefined && parsed.isValid() ? parsed.number : undefined;
}
