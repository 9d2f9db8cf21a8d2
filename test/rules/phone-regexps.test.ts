import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { build } from 'esbuild';
import { getCountries, getCountryCallingCode } from 'libphonenumber-js';
import examples from 'libphonenumber-js/examples.mobile.json';
import { compileOnce, phoneRegExpsOnce } from '../../scripts/phone-regexps.mjs';
import { requireBundled } from '../../scripts/server-bundle.mjs';
import { readPhone } from './phone-probe';

const root = path.resolve(__dirname, '../..');
const MATCHES_ENTIRELY = 'es6-modern/helpers/matchesEntirely.js';
const library = path.join(root, 'node_modules/libphonenumber-js');

const DEFAULT_COUNTRIES = [undefined, 'US', 'GB', 'DE', 'FR', 'BR', 'CO', 'IN', 'RU', 'AU', 'VI'];

/** Fixed lines, toll-free, extensions, national, carrier and IDD prefixes, lengths either side, and what is no number. */
const WRITTEN = [
  '+1 212 555 0123', '(212) 555-0123', '212-555-0123', '1 212 555 0123', '+1 800 555 0199', '+1 (415) 555-0123', '340 555 0123',
  '011 44 20 7946 0958', '00 49 30 1234567', '+44 20 7946 0958', '020 7946 0958', '07700 900123', '+49 30 1234567', '030 1234567',
  '+33 1 23 45 67 89', '01 23 45 67 89', '+55 11 91234-5678', '(11) 91234-5678', '0 21 11 91234-5678', '+57 601 2345678', '03 601 2345678',
  '+7 495 123-45-67', '8 495 123-45-67', '+91 98765 43210', '098765 43210', '+61 2 9876 5432', '1800 123 456', '+1 212 555 0123 ext. 12',
  '+44 20 7946 0958 x123', 'tel:+1-212-555-0123;ext=7', '+1 212', '+1 212 555 01234567', '123', '', '+', '++1 212 555 0123', '+999 123456',
  'abc', '03/04/2025', '45720', '0000000000', '+0 212 555 0123',
];

/** Every country's example number, international and national, and the same a digit short, a digit long, and with another first digit. */
function generated(): string[] {
  return getCountries().flatMap((country) => {
    const national = (examples as Record<string, string>)[country];
    if (national === undefined) return [];
    const international = `+${getCountryCallingCode(country)}${national}`;
    return [international, national, international.slice(0, -1), `${international}7`, `+${getCountryCallingCode(country)}0${national.slice(1)}`];
  });
}

describe('phone RegExps compiled once (scripts/phone-regexps.mjs)', () => {
  let bundled: { readPhone: typeof readPhone };
  before(async () => {
    bundled = (await requireBundled(path.join(__dirname, 'phone-probe.ts'))) as typeof bundled;
  });

  it('reads every number as the library as published does, first with the RegExps compiled and again with them kept', () => {
    const texts = [...WRITTEN, ...generated()];
    const differing: unknown[] = [];
    let valid = 0;
    for (let pass = 0; pass < 2; pass++) {
      for (const country of DEFAULT_COUNTRIES) {
        for (const text of texts) {
          const expected = readPhone(text, country);
          const actual = bundled.readPhone(text, country);
          if (pass === 0 && expected.valid) valid++;
          if (JSON.stringify(actual) !== JSON.stringify(expected)) differing.push({ text, country, expected, actual });
        }
      }
    }
    assert.deepEqual(differing.slice(0, 5), []);
    // The table holds both answers in numbers: valid ones and ones that are not.
    const readings = texts.length * DEFAULT_COUNTRIES.length;
    assert.ok(valid > readings / 10 && valid < readings / 2, `${valid} valid of ${readings}`);
  });

  it('is in the server, its parse worker and the browser importer as built', () => {
    for (const file of ['importd.cjs', 'parse-worker.cjs', 'importer.js']) {
      const text = readFileSync(path.join(root, 'build', file), 'utf8');
      assert.match(text, /nationalPrefixForParsing/, `${file} carries libphonenumber-js`);
      // matchesEntirely as published, minified or not: a RegExp built from its pattern on each call.
      assert.doesNotMatch(text, /new RegExp\("\^\(\?:" ?\+ ?[\w$]+ ?\+ ?"\)\$"\)/, file);
    }
  });

  it('fails a build whose helper is not the one it was written for', () => {
    const published = readFileSync(path.join(library, MATCHES_ENTIRELY), 'utf8');
    assert.match(compileOnce(MATCHES_ENTIRELY, published), /return compiledRegExp\(regularExpressionText, '\^\(\?:', '\)\$'\)\.test\(text\)/);
    assert.throws(() => compileOnce(MATCHES_ENTIRELY, published.replace('text || ', 'text ?? ')), /matchesEntirely\.js is not the one scripts\/phone-regexps\.mjs was written for/);
  });

  it('fails a bundle that takes the library in without its helpers (its CommonJS build)', async () => {
    await assert.rejects(bundle("require('libphonenumber-js').isValidPhoneNumber('+12125550123')"), /libphonenumber-js is bundled without es6-modern\/helpers\/matchesEntirely\.js/);
  });

  it('takes the es6-modern build of the library, without Babel helpers, wherever its es6 build is imported from', async () => {
    const bundled = await bundle(`
      import { parsePhoneNumberFromString } from 'libphonenumber-js';
      import { default as parse } from './node_modules/libphonenumber-js/es6/parsePhoneNumber.js';
      console.log(parsePhoneNumberFromString('+12125550123'), parse);
    `);
    const modules = [...bundled.matchAll(/^\/\/ .*\/libphonenumber-js\/(.+)$/gm)].map((module) => module[1]!);
    assert.ok(modules.filter((module) => module.startsWith('es6-modern/')).length > 20, modules.join(', '));
    assert.deepEqual(modules.filter((module) => module.startsWith('es6/')), []);
    assert.doesNotMatch(bundled, /_objectSpread|_classCallCheck|_createClass/);
  });

  it('fails a bundle that takes a file of the es6 build in by another way than a relative import', async () => {
    await assert.rejects(bundle(`import '${path.join(library, 'es6/helpers/matchesEntirely.js')}';`), /libphonenumber-js's es6\/helpers\/matchesEntirely\.js is bundled/);
  });
});

/** The bundle of `contents` (a module at the root) with the builds' plugin, not minified. */
async function bundle(contents: string): Promise<string> {
  const built = await build({ stdin: { contents, resolveDir: root }, bundle: true, platform: 'node', write: false, logLevel: 'silent', plugins: [phoneRegExpsOnce] });
  return built.outputFiles[0]!.text;
}
