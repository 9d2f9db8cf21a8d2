import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkDeclaredSchema } from '../../src/services/templates/declared-schema';
import { ServiceError } from '../../src/services/errors';

function problems(schema: unknown): { path: string; message: string }[] {
  try {
    checkDeclaredSchema(schema);
    return [];
  } catch (error) {
    assert.ok(error instanceof ServiceError);
    assert.equal(error.code, 'validation_failed');
    return error.details!.map(({ path, message }) => ({ path: path!, message }));
  }
}

describe('rules: the declared dialect, checked on write', () => {
  const cases: [string, unknown, string, RegExp][] = [
    ['an unknown type', { fields: [{ key: 'a', type: 'text' }] }, 'schema.fields.0.type', /one of string, number/],
    ['an enum without options', { fields: [{ key: 'a' }, { key: 'b', type: 'enum' }] }, 'schema.fields.1.options', /at least one option/],
    ['an enum with an empty list', { fields: [{ key: 'b', type: 'enum', options: [] }] }, 'schema.fields.0.options', /at least one option/],
    ['min > max', { fields: [{ key: 'a', type: 'number', min: 5, max: 1 }] }, 'schema.fields.0.min', /greater than max/],
    ['minLength > maxLength', { fields: [{ key: 'a', minLength: 5, maxLength: 1 }] }, 'schema.fields.0.minLength', /greater than maxLength/],
    ['a pattern that does not compile', { fields: [{ key: 'a', pattern: '(a' }] }, 'schema.fields.0.pattern', /does not compile/],
    ['a look-ahead (not linear-time)', { fields: [{ key: 'a', pattern: '(?=a)' }] }, 'schema.fields.0.pattern', /does not compile/],
    ['a key twice', { fields: [{ key: 'a' }, 'b', { key: 'a' }] }, 'schema.fields.2.key', /second time/],
    ['an empty key', { fields: [{ key: '' }] }, 'schema.fields.0.key', /1 to 255/],
    ['an entry without key', { fields: [{ type: 'string' }] }, 'schema.fields.0.key', /expected string/],
    ['more than 2 000 fields', { fields: Array.from({ length: 2001 }, (_, i) => `f${i}`) }, 'schema.fields', /at most 2000/],
    ['an unknown transform', { fields: [{ key: 'a', transforms: ['reverse'] }] }, 'schema.fields.0.transforms.0', /one of trim/],
    ['an unknown date format', { fields: [{ key: 'a', type: 'date', formats: ['YY'] }] }, 'schema.fields.0.formats.0', /one of YYYY-MM-DD/],
    ['an unknown country', { fields: [{ key: 'a', type: 'phone', defaultCountry: 'XX' }] }, 'schema.fields.0.defaultCountry', /country/],
    ['an unknown policy', { fields: [], onInvalid: 'ignore' }, 'schema.onInvalid', /./],
    ['an unknown extraColumns', { fields: [], extraColumns: 'error' }, 'schema.extraColumns', /./],
    ['uniqueTogether naming an undeclared key', { fields: ['a', 'b'], uniqueTogether: [['a', 'c']] }, 'schema.uniqueTogether.0.1', /not a declared field/],
    ['two options answering to one text', { fields: [{ key: 'a', type: 'enum', options: [{ value: 'x' }, { value: 'y', alternatives: ['X'] }] }] }, 'schema.fields.0.options.1', /also names option "x"/],
    ['a default that is an object', { fields: [{ key: 'a', default: {} }] }, 'schema.fields.0.default', /./],
  ];
  for (const [name, schema, path, message] of cases) {
    it(`refuses ${name} at ${path}`, () => {
      const found = problems(schema);
      const hit = found.find((problem) => problem.path === path);
      assert.ok(hit, `${path} not among ${JSON.stringify(found)}`);
      assert.match(hit.message, message);
    });
  }

  it('accepts the full dialect, the importer’s first one, and free-form schemas', () => {
    const full = {
      fields: [
        { key: 'email', label: 'E-mail', description: 'work address', type: 'email', required: true, unique: true, transforms: ['trim', 'lowercase'] },
        { key: 'sku', pattern: '^[A-Z]{3}-\\d+$', errorMessage: 'SKU like ABC-123', minLength: 5, maxLength: 20 },
        { key: 'qty', type: 'integer', min: 0, max: 1000, numberFormat: 'eu', default: 1 },
        { key: 'price', type: 'number', decimals: 2, numberFormat: 'auto' },
        { key: 'born', type: 'date', formats: ['DD/MM/YYYY', 'excel'] },
        { key: 'seen', type: 'datetime' },
        { key: 'phone', type: 'phone', defaultCountry: 'FR' },
        { key: 'site', type: 'url' },
        { key: 'active', type: 'boolean' },
        { key: 'country', type: 'enum', options: [{ value: 'FR', label: 'France', alternatives: ['Frankreich'] }, 'DE'] },
      ],
      uniqueTogether: [['sku', 'country']],
      onInvalid: 'reject',
      extraColumns: 'drop',
      anyOtherMember: { kept: true },
    };
    assert.deepEqual(problems(full), []);
    assert.deepEqual(problems({ fields: [{ key: 'c', label: 'C', type: 'string', required: true, pattern: '^x', enum: ['x1', 'x2'] }] }), []);
    for (const schema of [{}, { key: 'k' }, { fields: { a: {} } }, { columns: ['a'] }]) assert.deepEqual(problems(schema), []);
  });
});
