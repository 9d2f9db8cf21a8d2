// Bundled by phone-regexps.test.ts with the builds' plugin, and imported as is: the phone rule and the library's
// readings behind it, to compare the two.
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import { compilePhone } from '../../src/rules/phones';

export function readPhone(text: string, defaultCountry: string | undefined) {
  const parsed = parsePhoneNumberFromString(text, defaultCountry as CountryCode | undefined);
  return {
    rule: compilePhone(defaultCountry)(text),
    ...(parsed && {
      number: parsed.number,
      country: parsed.country,
      ext: parsed.ext,
      valid: parsed.isValid(),
      possible: parsed.isPossible(),
      type: parsed.getType(),
      national: parsed.formatNational(),
    }),
  };
}
