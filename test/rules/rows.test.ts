import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileRules, RowValidator } from '../../src/rules';
import { hashText, HashSet } from '../../src/rules/unique';

function validator(schema: Record<string, unknown>): RowValidator {
  return new RowValidator(compileRules(schema)!);
}

/** Each row's stored JSON text and its error codes (`key:code`). */
function run(schema: Record<string, unknown>, rows: string[]): [string, string[]][] {
  const rules = validator(schema);
  return rows.map((text) => {
    const { row, errors } = rules.check(JSON.parse(text));
    return [JSON.stringify(row), (errors ?? []).map((e) => `${e.key}:${e.code}`)];
  });
}

describe('rules: rows', () => {
  it('tells a missing cell, null and an empty string apart only where a default or required says so', () => {
    const schema = { fields: [{ key: 'a', required: true }, { key: 'b', default: 'x' }, { key: 'c' }] };
    assert.deepEqual(run(schema, ['{"c":""}', '{"a":"","b":null,"c":null}', '{"a":"  ","b":"","c":1}', '{"a":"1","b":"y"}']), [
      ['{"c":"","b":"x"}', ['a:required']],
      ['{"a":"","b":"x","c":null}', ['a:required']],
      ['{"a":"  ","b":"x","c":1}', ['a:required']],
      ['{"a":"1","b":"y"}', []],
    ]);
  });

  it('keeps __proto__ and constructor as own cells, checked like any other', () => {
    const schema = { fields: [{ key: '__proto__', type: 'integer', required: true }, { key: 'constructor', transforms: ['uppercase'] }] };
    const results = run(schema, ['{"__proto__":"12","constructor":"c"}', '{"toString":"x"}']);
    const [text, errors] = results[0]!;
    const [missingText, missing] = results[1]!;
    assert.equal(text, '{"__proto__":12,"constructor":"C"}');
    assert.deepEqual(errors, []);
    assert.equal(missingText, '{"toString":"x"}');
    assert.deepEqual(missing, ['__proto__:required']);
    const [dropped] = run({ ...schema, extraColumns: 'drop' }, ['{"x":1,"__proto__":"5"}'])[0]!;
    assert.equal(dropped, '{"__proto__":5}');
    assert.equal(Object.getPrototypeOf(JSON.parse(dropped)), Object.prototype);
  });

  it('drops undeclared columns with extraColumns drop (declared order), keeps them by default', () => {
    const fields = [{ key: 'b' }, { key: 'a', type: 'integer' }];
    assert.deepEqual(run({ fields, extraColumns: 'drop' }, ['{"a":"1","z":2,"b":"x"}']), [['{"b":"x","a":1}', []]]);
    assert.deepEqual(run({ fields }, ['{"a":"1","z":2,"b":"x"}']), [['{"a":1,"z":2,"b":"x"}', []]]);
  });

  it('finds duplicates of unique fields by their stored value, empty cells never colliding', () => {
    const schema = { fields: [{ key: 'email', type: 'email', unique: true }, { key: 'n', type: 'integer', unique: true }] };
    const rows = ['{"email":"a@x.io","n":"1"}', '{"email":" a@x.io ","n":1}', '{"email":"","n":null}', '{"email":"","n":"01"}', '{"email":"b@x.io"}'];
    assert.deepEqual(run(schema, rows).map(([, errors]) => errors), [[], ['email:unique', 'n:unique'], [], ['n:unique'], []]);
  });

  it('checks uniqueTogether over the stored values of the group', () => {
    const schema = { fields: [{ key: 'first', transforms: ['lowercase'] }, { key: 'last' }], uniqueTogether: [['first', 'last']] };
    const rows = ['{"first":"Ada","last":"L"}', '{"first":"ADA","last":"L"}', '{"first":"Ada","last":"M"}', '{"first":"Ada"}', '{"first":"Ada"}'];
    assert.deepEqual(run(schema, rows).map(([, errors]) => errors), [[], ['first+last:unique_together'], [], [], []]);
  });

  it('under discard, an invalid row’s values do not count for uniqueness', () => {
    const fields = [{ key: 'id', unique: true }, { key: 'n', type: 'integer' }];
    const rows = ['{"id":"1","n":"x"}', '{"id":"1","n":"2"}'];
    assert.deepEqual(run({ fields, onInvalid: 'discard' }, rows).map(([, e]) => e), [['n:type'], []]);
    assert.deepEqual(run({ fields, onInvalid: 'keep' }, rows).map(([, e]) => e), [['n:type'], ['id:unique']]);
  });

  it('compiles a free-form schema (and an old declared one that breaks the dialect) to nothing, and bare string fields to a trivial rule set', () => {
    for (const schema of [undefined, {}, { fields: 'x' }, { fields: { a: {} } }, { columns: [{ key: 'a' }] }, { fields: [{ key: 'a', type: 'text' }] }]) {
      assert.equal(compileRules(schema), undefined, JSON.stringify(schema));
    }
    assert.equal(compileRules({ fields: ['a', { key: 'b', label: 'B' }] })!.trivial, true);
    assert.equal(compileRules({ fields: [{ key: 'a', required: true }] })!.trivial, false);
    assert.equal(compileRules({ fields: [{ key: 'a' }], extraColumns: 'drop' })!.trivial, false);
    assert.equal(compileRules({ fields: [] })!.onInvalid, 'keep');
  });
});

describe('rules: hashes', () => {
  it('a hash set holds a million distinct hashes and finds each again', () => {
    const set = new HashSet();
    for (let i = 0; i < 1_000_000; i++) assert.equal(set.add(hashText(`value-${i}`)), true);
    for (let i = 0; i < 1_000_000; i += 997) assert.equal(set.add(hashText(`value-${i}`)), false);
    assert.equal(set.add(0), true);
    assert.equal(set.add(0), false);
  });
});
