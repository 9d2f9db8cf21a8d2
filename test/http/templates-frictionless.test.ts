import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cliOnHarness } from '../helpers/cli';
import { call, json } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';

const TABLE = {
  fields: [
    { name: 'id', type: 'integer', title: 'Id', constraints: { required: true, unique: true, minimum: 1 } },
    { name: 'email', type: 'string', format: 'email' },
    { name: 'born', type: 'date', format: '%d/%m/%Y' },
    { name: 'tier', type: 'string', constraints: { enum: ['gold', 'silver'] } },
  ],
  primaryKey: ['id'],
  missingValues: [''],
};
const DECLARED = {
  fields: [
    { key: 'id', type: 'integer', label: 'Id', required: true, unique: true, min: 1 },
    { key: 'email', type: 'email' },
    { key: 'born', type: 'date', formats: ['DD/MM/YYYY'] },
    { key: 'tier', type: 'enum', options: ['gold', 'silver'] },
  ],
  primaryKey: ['id'],
};

describe('templates: Frictionless Table Schema in and out', () => {
  const { h, env } = useHarness();
  const post = (body: unknown) => call(h, 'POST', '/v1/templates', { key: env.secretKey, body });
  const put = (id: string, body: unknown) => call(h, 'PUT', `/v1/templates/${id}`, { key: env.secretKey, body });
  const get = (id: string, query = '') => call(h, 'GET', `/v1/templates/${id}${query}`, { key: env.secretKey });
  const stored = async (id: string) => JSON.parse((await h.ctx.store.templates.find(env.accountId, id))!.schema);
  const count = async () => (await h.sql('SELECT count(*) AS n FROM templates'))[0]!.n;

  it('POST stores a Table Schema converted into the declared dialect, primaryKey kept', async () => {
    const response = await post({ key: 'people', schema: TABLE });
    assert.equal(response.status, 201);
    const body = await json(response);
    assert.deepEqual(body.schema, DECLARED);
    assert.deepEqual(await stored(body.id), DECLARED);
  });

  it('GET ?format=frictionless gives the stored template back as a Table Schema; the CLI prints the same', async () => {
    const created = await json(await post({ key: 'people-out', schema: TABLE }));
    const response = await get(created.id, '?format=frictionless');
    assert.equal(response.status, 200);
    const body = await json(response);
    assert.equal(body.id, created.id);
    assert.deepEqual(body.schema, TABLE);
    assert.deepEqual((await json(await get(created.id))).schema, DECLARED);

    const importd = cliOnHarness(h);
    const bare = await importd('templates', 'show', created.id, '--frictionless');
    assert.equal(bare.code, 0, bare.stderr);
    assert.deepEqual(JSON.parse(bare.stdout), TABLE);
    const full = await importd('templates', 'show', created.id, '--frictionless', '--json');
    assert.deepEqual(JSON.parse(full.stdout), body);
  });

  it('declared -> Table Schema -> declared through the API keeps the template as it was', async () => {
    const declared = {
      key: 'orders',
      onInvalid: 'reject',
      uniqueTogether: [['first', 'last']],
      fields: [
        { key: 'first', transforms: ['trim', 'titlecase'] },
        { key: 'last', required: true, maxLength: 40 },
        { key: 'phone', type: 'phone', defaultCountry: 'FR' },
        { key: 'amount', type: 'number', numberFormat: 'eu', decimals: 2, min: 0 },
        { key: 'country', type: 'enum', options: [{ value: 'FR', label: 'France', alternatives: ['Frankreich'] }, 'DE'] },
        { key: 'when', type: 'date', formats: ['DD/MM/YYYY', 'excel'] },
      ],
      primaryKey: 'first',
    };
    const first = await json(await post({ schema: declared }));
    const table = (await json(await get(first.id, '?format=frictionless'))).schema;
    const second = await post({ key: 'orders-again', schema: table });
    assert.equal(second.status, 201);
    assert.deepEqual(await stored((await json(second)).id), declared);
  });

  it('PUT converts a Table Schema too', async () => {
    const created = await json(await post({ key: 'replaced', schema: { fields: ['a'] } }));
    const response = await put(created.id, { schema: TABLE });
    assert.equal(response.status, 200);
    assert.deepEqual(await stored(created.id), DECLARED);
  });

  const bad: [string, unknown, string][] = [
    ['an unknown type', { fields: [{ name: 'a', type: 'text' }] }, 'schema.fields.0.type'],
    ['a type importd cannot honour', { fields: [{ name: 'a', type: 'geopoint' }] }, 'schema.fields.0.type'],
    ['a constraint of the wrong type', { fields: [{ name: 'a', constraints: { maxLength: 'ten' } }] }, 'schema.fields.0.constraints.maxLength'],
    ['minimum > maximum', { fields: [{ name: 'a', type: 'number', constraints: { minimum: 5, maximum: 1 } }] }, 'schema.fields.0.constraints.minimum'],
    ['a pattern that does not compile', { fields: [{ name: 'a', constraints: { pattern: '[' } }] }, 'schema.fields.0.constraints.pattern'],
    ['a field named twice', { fields: [{ name: 'a' }, { name: 'a' }] }, 'schema.fields.1.name'],
    ['primaryKey naming an unknown field', { fields: [{ name: 'a' }], primaryKey: ['b'] }, 'schema.primaryKey.0'],
    ['missingValues other than [""]', { fields: [{ name: 'a' }], missingValues: ['NA'] }, 'schema.missingValues'],
  ];

  it('POST and PUT refuse a Table Schema that cannot work with 400 naming the path, storing nothing', async () => {
    const created = await json(await post({ key: 'kept', schema: DECLARED }));
    for (const [name, schema, path] of bad) {
      const before = await count();
      for (const response of [await post({ key: `bad-${name}`, schema }), await put(created.id, { schema })]) {
        assert.equal(response.status, 400, name);
        const { error } = await json(response);
        assert.equal(error.code, 'validation_failed', name);
        assert.ok(error.details.some((detail: { path: string }) => detail.path === path), `${name}: ${JSON.stringify(error.details)}`);
      }
      assert.equal(await count(), before, name);
    }
    assert.deepEqual(await stored(created.id), DECLARED);
  });

  it('a declared primaryKey must name declared fields', async () => {
    const response = await post({ key: 'pk', schema: { fields: ['a'], primaryKey: ['a', 'z'] } });
    assert.equal(response.status, 400);
    assert.equal((await json(response)).error.details[0].path, 'schema.primaryKey.1');
  });

  it('a free-form template has no Table Schema form: 409 conflict over HTTP, exit 4 from the CLI', async () => {
    const created = await json(await post({ key: 'free', schema: { columns: ['a'] } }));
    const response = await get(created.id, '?format=frictionless');
    assert.equal(response.status, 409);
    const { error } = await json(response);
    assert.equal(error.code, 'conflict');
    assert.match(error.message, /free-form/);
    const cli = await cliOnHarness(h)('templates', 'show', created.id, '--frictionless');
    assert.equal(cli.code, 4);
    assert.match(cli.stderr, /error \[conflict\]: the template is free-form/);
  });

  it('an unknown format is 400 validation_failed naming format', async () => {
    const created = await json(await post({ key: 'fmt', schema: DECLARED }));
    for (const query of ['?format=xml', '?format=', '?format=FRICTIONLESS']) {
      const response = await get(created.id, query);
      assert.equal(response.status, 400, query);
      const { error } = await json(response);
      assert.equal(error.code, 'validation_failed');
      assert.equal(error.details[0].path, 'format', query);
    }
  });
});
