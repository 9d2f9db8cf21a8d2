import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DeclaredSchema } from '../../src/rules';
import { fromTableSchema, isTableSchema, toTableSchema } from '../../src/rules/frictionless';

type Json = Record<string, any>;

// A small deterministic generator (mulberry32), so a failing case can be replayed from its seed.
function random(seed: number) {
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const maybe = (value: unknown) => (next() < 0.5 ? value : undefined);
  return { pick, maybe, int: (n: number) => Math.floor(next() * n) };
}

const defined = (members: Json): Json => Object.fromEntries(Object.entries(members).filter(([, value]) => value !== undefined));

/** A declared field using every member of its type, each present or not at random. */
function declaredField(r: ReturnType<typeof random>, key: string): Json {
  const type = r.pick([undefined, 'string', 'number', 'integer', 'boolean', 'date', 'datetime', 'email', 'url', 'phone', 'enum']);
  const numeric = type === 'number' || type === 'integer';
  const low = r.int(10);
  return defined({
    key,
    type,
    label: r.maybe(`Label ${key}`),
    description: r.maybe('a description'),
    required: r.maybe(r.pick([true, false])),
    unique: r.maybe(r.pick([true, false])),
    minLength: numeric ? undefined : r.maybe(low),
    maxLength: numeric ? undefined : r.maybe(low + 5),
    pattern: numeric ? undefined : r.maybe('^[a-z]+$'),
    errorMessage: r.maybe('Not right'),
    min: numeric ? r.maybe(low) : undefined,
    max: numeric ? r.maybe(low + 100) : undefined,
    decimals: type === 'number' ? r.maybe(2) : undefined,
    numberFormat: numeric ? r.maybe(r.pick(['us', 'eu', 'auto'])) : undefined,
    formats: type === 'date' || type === 'datetime' ? r.maybe(r.pick([['DD/MM/YYYY'], ['YYYY-MM-DD'], ['excel'], ['MM/DD/YYYY', 'excel']])) : undefined,
    defaultCountry: type === 'phone' ? r.maybe('FR') : undefined,
    options: type === 'enum' ? r.pick([['a', 'b'], [{ value: 'FR', label: 'France', alternatives: ['Frankreich'] }, 'DE']]) : undefined,
    transforms: r.maybe(['trim', 'lowercase']),
    default: r.maybe(r.pick([null, 'x', 0, false])),
    hint: r.maybe('a member neither dialect names'),
  });
}

function declaredSchema(seed: number): Json {
  const r = random(seed);
  const keys = Array.from({ length: 1 + r.int(6) }, (_, i) => `f${i}`);
  return defined({
    key: r.maybe('orders'),
    fields: keys.map((key) => declaredField(r, key)),
    primaryKey: r.maybe(r.pick([keys[0], [keys[0]]])),
    uniqueTogether: keys.length > 1 ? r.maybe([[keys[0], keys[1]]]) : undefined,
    onInvalid: r.maybe(r.pick(['reject', 'keep', 'discard'])),
    extraColumns: r.maybe(r.pick(['drop', 'keep'])),
  });
}

describe('Frictionless Table Schema <-> declared dialect', () => {
  it('declared -> Table Schema -> declared is the identity (500 generated schemas)', () => {
    for (let seed = 1; seed <= 500; seed++) {
      const declared = declaredSchema(seed);
      assert.ok(DeclaredSchema.safeParse(declared).success, `seed ${seed} generated an invalid schema`);
      const table = toTableSchema(declared as Json & { fields: unknown[] });
      assert.ok(isTableSchema(table), `seed ${seed}: the Table Schema is not recognised as one`);
      const back = fromTableSchema(table as Json & { fields: unknown[] });
      assert.deepEqual(back.issues, [], `seed ${seed}`);
      assert.deepEqual(back.schema, declared, `seed ${seed}`);
    }
  });

  it('maps Table Schema types, formats and constraints onto the dialect', () => {
    const { schema, issues } = fromTableSchema({
      fields: [
        { name: 'id', type: 'integer', constraints: { required: true, unique: true, minimum: 1 } },
        { name: 'email', type: 'string', format: 'email', title: 'E-mail' },
        { name: 'site', type: 'string', format: 'uri', description: 'home page' },
        { name: 'born', type: 'date', format: '%d/%m/%Y' },
        { name: 'seen', type: 'datetime' },
        { name: 'paid', type: 'boolean', trueValues: ['yes'], falseValues: ['no'] },
        { name: 'price', type: 'number', decimalChar: ',', groupChar: '.', constraints: { maximum: 10 } },
        { name: 'tier', constraints: { enum: ['gold', 'silver'], pattern: '^[a-z]+$', maxLength: 6 } },
        { name: 'phone', type: 'string', importd: { type: 'phone', defaultCountry: 'FR' }, example: '01 42 68 53 00' },
      ],
      primaryKey: ['id'],
      missingValues: [''],
      importd: { onInvalid: 'reject' },
    });
    assert.deepEqual(issues, []);
    assert.deepEqual(schema, {
      fields: [
        { key: 'id', type: 'integer', required: true, unique: true, min: 1 },
        { key: 'email', type: 'email', label: 'E-mail' },
        { key: 'site', type: 'url', description: 'home page' },
        { key: 'born', type: 'date', formats: ['DD/MM/YYYY'] },
        { key: 'seen', type: 'datetime' },
        { key: 'paid', type: 'boolean' },
        { key: 'price', type: 'number', numberFormat: 'eu', max: 10 },
        { key: 'tier', type: 'enum', options: ['gold', 'silver'], pattern: '^[a-z]+$', maxLength: 6 },
        { key: 'phone', type: 'phone', defaultCountry: 'FR', example: '01 42 68 53 00' },
      ],
      primaryKey: ['id'],
      onInvalid: 'reject',
    });
    assert.ok(DeclaredSchema.safeParse(schema).success);
  });

  it('is recognised by its shape: fields with name and without key', () => {
    assert.equal(isTableSchema({ fields: [{ name: 'a' }] }), true);
    assert.equal(isTableSchema({ fields: [{ key: 'a' }] }), false);
    assert.equal(isTableSchema({ fields: [{ name: 'a', key: 'a' }] }), false);
    assert.equal(isTableSchema({ fields: [{ name: 'a' }, 'b'] }), false);
    assert.equal(isTableSchema({ fields: [] }), false);
    assert.equal(isTableSchema({ columns: [{ name: 'a' }] }), false);
  });

  const bad: [string, Json, string][] = [
    ['an unknown type', { fields: [{ name: 'a', type: 'text' }] }, 'fields.0.type'],
    ['a type importd cannot honour', { fields: [{ name: 'a', type: 'geopoint' }] }, 'fields.0.type'],
    ['a string format importd cannot read', { fields: [{ name: 'a', format: 'uuid' }] }, 'fields.0.format'],
    ['a date read in any format', { fields: [{ name: 'a', type: 'date', format: 'any' }] }, 'fields.0.format'],
    ['required not a boolean', { fields: [{ name: 'a', constraints: { required: 'yes' } }] }, 'fields.0.constraints.required'],
    ['minLength not an integer', { fields: [{ name: 'a', constraints: { minLength: 1.5 } }] }, 'fields.0.constraints.minLength'],
    ['minimum not a number', { fields: [{ name: 'a', type: 'number', constraints: { minimum: '1' } }] }, 'fields.0.constraints.minimum'],
    ['minimum on a date', { fields: [{ name: 'a', type: 'date', constraints: { minimum: '2020-01-01' } }] }, 'fields.0.constraints.minimum'],
    ['minimum > maximum', { fields: [{ name: 'a', type: 'integer', constraints: { minimum: 2, maximum: 1 } }] }, 'fields.0.constraints.minimum'],
    ['a pattern that does not compile', { fields: [{ name: 'a', constraints: { pattern: '(?=a)' } }] }, 'fields.0.constraints.pattern'],
    ['an enum of numbers', { fields: [{ name: 'a', type: 'integer', constraints: { enum: [1, 2] } }] }, 'fields.0.constraints.enum'],
    ['an unknown constraint', { fields: [{ name: 'a', constraints: { multipleOf: 2 } }] }, 'fields.0.constraints.multipleOf'],
    ['a field named twice', { fields: [{ name: 'a' }, { name: 'a' }] }, 'fields.1.name'],
    ['primaryKey naming an unknown field', { fields: [{ name: 'a' }], primaryKey: ['a', 'b'] }, 'primaryKey.1'],
    ['primaryKey as a string naming an unknown field', { fields: [{ name: 'a' }], primaryKey: 'b' }, 'primaryKey'],
    ['missingValues other than [""]', { fields: [{ name: 'a' }], missingValues: ['', 'NA'] }, 'missingValues'],
    ['foreignKeys', { fields: [{ name: 'a' }], foreignKeys: [] }, 'foreignKeys'],
    ['trueValues importd cannot read', { fields: [{ name: 'a', type: 'boolean', trueValues: ['oui'] }] }, 'fields.0.trueValues'],
    ['a decimalChar importd cannot read', { fields: [{ name: 'a', type: 'number', decimalChar: ';' }] }, 'fields.0.decimalChar'],
    ['bareNumber false', { fields: [{ name: 'a', type: 'number', bareNumber: false }] }, 'fields.0.bareNumber'],
    ['a dialect member outside importd', { fields: [{ name: 'a', min: 1 }] }, 'fields.0.min'],
    ['importd not an object', { fields: [{ name: 'a' }], importd: 'x' }, 'importd'],
  ];
  for (const [name, table, path] of bad) {
    it(`refuses ${name}, naming ${path}`, () => {
      const { issues } = fromTableSchema(table as Json & { fields: unknown[] });
      assert.ok(issues.some((issue) => issue.path.join('.') === path), JSON.stringify(issues));
    });
  }
});
