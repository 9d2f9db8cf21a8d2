import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ruleMessage } from '../../src/embed/i18n/rule-message';
import { LOCALES } from '../../src/embed/i18n/locales';
import { createTranslator } from '../../src/embed/i18n/translate';
import { compileRules, RowValidator, type RuleError } from '../../src/rules';

const SCHEMA = {
  primaryKey: ['sku'],
  uniqueTogether: [['a', 'b']],
  fields: [
    { key: 'sku', label: 'SKU' },
    { key: 'ok', label: 'OK', type: 'boolean' },
    { key: 'day', label: 'Day', type: 'date', formats: ['DD/MM/YYYY', 'MM/DD/YYYY'] },
    { key: 'mail', label: 'Mail', type: 'email', required: true },
    { key: 'tel', label: 'Tel', type: 'phone', defaultCountry: 'DE' },
    { key: 'intl', label: 'Intl', type: 'phone' },
    { key: 'site', label: 'Site', type: 'url' },
    { key: 'price', label: 'Price', type: 'number', decimals: 1, min: 0.5, max: 1000 },
    { key: 'count', label: 'Count', type: 'integer' },
    { key: 'n', label: 'N', type: 'number' },
    { key: 'eu', label: 'EU', type: 'number', numberFormat: 'eu' },
    { key: 'euInt', label: 'EU int', type: 'integer', numberFormat: 'eu' },
    { key: 'auto', label: 'Auto', type: 'number', numberFormat: 'auto' },
    { key: 'code', label: 'Code', minLength: 2, maxLength: 3, pattern: '^[A-Z]+$' },
    { key: 'zip', label: 'Zip', pattern: '^\\d{5}$', errorMessage: 'Zip: five digits, please' },
    { key: 'size', label: 'Size', type: 'enum', options: ['S', 'M', 'L', 'XL', 'XXL', 'XXXL'] },
    { key: 'email', unique: true },
    { key: 'a' },
    { key: 'b' },
  ],
};
// Each row breaks rules; together they raise every code and every kind of `type` error.
const ROWS = [
  { sku: 'A', ok: 'maybe', day: 'x', tel: '12', intl: '030 1234567', site: 'ftp://x', price: '0.2', count: '1.5', eu: 'abc', euInt: 'x', n: 'x', auto: '1.234', code: 'a', zip: '1', size: 'M/L', email: 'x', a: '1', b: '2' },
  { sku: 'A', day: '03/04/2025', mail: 'no', price: '1.25', count: 'x', code: 'ABCD', email: 'x', a: '1', b: '2' },
  { sku: 'B', mail: 'a@b.co', price: '2000', code: 'ab' },
];

function errorsOf(): RuleError[] {
  const validator = new RowValidator(compileRules(SCHEMA)!);
  return ROWS.flatMap((row) => validator.check({ ...row }).errors ?? []);
}

describe("the review grid's rule messages", () => {
  const errors = errorsOf();

  it('cover every code and every kind of type error here', () => {
    assert.deepEqual(new Set(errors.map((error) => error.code)), new Set(['type', 'ambiguous_number', 'ambiguous_date', 'decimals', 'min', 'max', 'min_length', 'max_length', 'pattern', 'enum', 'unique', 'unique_together', 'duplicate_key', 'required']));
    const expected = errors.filter((error) => error.code === 'type').map((error) => error.params.expected);
    assert.deepEqual(new Set(expected), new Set(['boolean', 'date', 'email', 'phone', 'phone_international', 'url', 'number', 'integer', 'number_in_notation', 'integer_in_notation']));
  });

  it("are the server's messages in English (numbers by Intl; a duplicate key's rows numbered from 1, as in the grid)", () => {
    const english = createTranslator(['en']);
    for (const error of errors) {
      const expected = error.message.replace('rows 0 and 1', 'rows 1 and 2').replace('1000', '1,000');
      assert.equal(ruleMessage(english, error), expected, `${error.code} ${JSON.stringify(error.params)}`);
    }
  });

  it('are translated in every other locale: no parameter left, the same values, numbers by Intl', () => {
    for (const language of Object.keys(LOCALES).filter((name) => name !== 'en')) {
      const t = createTranslator([language]);
      for (const error of errors) {
        const shown = ruleMessage(t, error);
        if (error.params.errorMessage !== undefined) {
          assert.equal(shown, 'Zip: five digits, please', "the template's own message as written");
          continue;
        }
        assert.notEqual(shown, error.message, `${language} ${error.code}`);
        assert.doesNotMatch(shown, /\{\w+\}/, `${language} ${error.code}: ${shown}`);
        for (const value of Object.values(error.params)) if (typeof value === 'string' && value !== error.params.expected) assert.ok(shown.includes(value), `${language} ${error.code} names ${value}`);
      }
    }
    const german = createTranslator(['de']);
    const byCode = (code: string) => errors.find((error) => error.code === code)!;
    assert.equal(ruleMessage(german, byCode('max')), 'Price darf höchstens 1.000 sein');
    assert.equal(ruleMessage(german, byCode('min')), 'Price muss mindestens 0,5 sein');
    assert.equal(ruleMessage(german, byCode('decimals')), 'Price darf höchstens 1 Nachkommastelle haben');
    assert.equal(ruleMessage(german, byCode('duplicate_key')), 'Die Zeilen 1 und 2 haben denselben Wert in sku');
    assert.equal(ruleMessage(createTranslator(['fr']), byCode('required')), 'mail est obligatoire');
  });

  it("keep the server's text for an error the tables do not know", () => {
    const unknown = { key: 'x', code: 'type', message: 'x is odd', params: { field: 'x', expected: 'odd' } } as unknown as RuleError;
    assert.equal(ruleMessage(createTranslator(['de']), unknown), 'x is odd');
  });
});
