import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ReviewModel } from '../../src/embed/grid/review-model';
import { Rows } from '../../src/embed/rows';
import { readFields } from '../../src/embed/template';
import { confirmedMapping, importBody, JSON_BODY_LIMIT, MAX_MAPPING_CHARS } from '../../src/embed/submit';

describe('readFields', () => {
  it('reads the documented members and ignores what it does not know', () => {
    const fields = readFields({
      key: 'contacts',
      fields: [
        { key: 'email', label: 'E-mail', type: 'email', required: true, extra: 1 },
        { key: 'age', type: 'integer' },
        { key: 'code', pattern: '^[A-Z]{2}$', enum: ['DE', 'FR', 3] },
        { key: 'bad', pattern: '(' },
        { label: 'no key' },
        'not an object',
        { key: 'email', label: 'duplicate' },
      ],
    });
    assert.deepEqual(
      fields.map(({ key, label, type, required, enum: allowed }) => ({ key, label, type, required, allowed })),
      [
        { key: 'email', label: 'E-mail', type: 'email', required: true, allowed: undefined },
        { key: 'age', label: 'age', type: 'string', required: false, allowed: undefined },
        { key: 'code', label: 'code', type: 'string', required: false, allowed: ['DE', 'FR'] },
        { key: 'bad', label: 'bad', type: 'string', required: false, allowed: undefined },
      ],
    );
    assert.equal(fields[3]!.pattern, undefined, 'an invalid pattern is ignored, not fatal');
  });

  it('reads nothing from a schema without fields', () => {
    for (const schema of [undefined, null, [], 'x', {}, { fields: 'x' }]) assert.deepEqual(readFields(schema), []);
  });
});

describe('the import body', () => {
  const fields = [{ key: 'email' }, { key: 'zip' }, { key: 'unmapped' }].map((f) => ({ ...f, label: f.key, type: 'string' as const, required: false, pattern: undefined, enum: undefined }));

  it('puts each mapped column under its field key, as text, leaving unmapped fields out', () => {
    const columns = [{ key: 'email', label: 'email', column: 1 }, { key: 'zip', label: 'zip', column: 0 }, { key: 'unmapped', label: 'unmapped', column: -1 }];
    assert.deepEqual(new ReviewModel(Rows.of([['00123', 'a@b.co'], ['02139']]), columns, undefined).recordsToSend(), [
      { email: 'a@b.co', zip: '00123' },
      { email: '', zip: '02139' },
    ]);
  });

  it('records the confirmed mapping by header label, bounded in size', () => {
    assert.deepEqual(confirmedMapping(fields, { email: 1, zip: 0, unmapped: -1 }, ['PLZ', 'E-mail']), { email: 'E-mail', zip: 'PLZ' });
    const many = Array.from({ length: 5_000 }, (_, index) => ({ ...fields[0]!, key: `field_${index}` }));
    const headers = many.map((_, index) => `Column header number ${index}`);
    const confirmed = confirmedMapping(many, Object.fromEntries(many.map((field, index) => [field.key, index])), headers);
    assert.ok(JSON.stringify(confirmed).length <= MAX_MAPPING_CHARS);
    assert.equal(confirmed.field_0, 'Column header number 0');
  });

  it('is JSON while small and NDJSON (meta first, then a row a line) beyond the limit', async () => {
    const small = importBody({ sdkVersion: '1' }, [{ a: '1' }]);
    assert.equal(small.type, 'application/json');
    assert.deepEqual(JSON.parse(await small.text()), { meta: { sdkVersion: '1' }, rows: [{ a: '1' }] });
    const rows = Array.from({ length: Math.ceil(JSON_BODY_LIMIT / 10) }, (_, index) => ({ a: String(index) }));
    const large = importBody({ sdkVersion: '1' }, rows);
    assert.equal(large.type, 'application/x-ndjson');
    const lines = (await large.text()).trimEnd().split('\n');
    assert.deepEqual(JSON.parse(lines[0]!), { meta: { sdkVersion: '1' } });
    assert.equal(lines.length, rows.length + 1);
    assert.deepEqual(JSON.parse(lines.at(-1)!), rows.at(-1));
    // A dry run says so beside meta, in either form.
    assert.deepEqual(JSON.parse(await importBody({ sdkVersion: '1' }, [{ a: '1' }], { dryRun: true }).text()), { meta: { sdkVersion: '1' }, dryRun: true, rows: [{ a: '1' }] });
    assert.deepEqual(JSON.parse((await importBody({ sdkVersion: '1' }, rows, { dryRun: true }).text()).split('\n')[0]!), { meta: { sdkVersion: '1' }, dryRun: true });
  });
});
