import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { PARSE_IN_WORKER_BYTES } from '../../src/services/imports/parse-pool';
import { cliOnHarness } from '../helpers/cli';
import { call, json } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';

/**
 * Values that look like another type, each under a field of its own (`key`, or `c<index>`), in a row of its
 * own: `cell` is the cell's JSON text (undefined: the row has no such cell); `stored` the stored cell's JSON
 * text (undefined: still missing), or `!code` for the row's error on that field (the cell then stored as sent).
 */
interface Case {
  field: Record<string, unknown>;
  cell: string | undefined;
  stored: string | undefined;
  key?: string;
}

const LONG_A = 'a'.repeat(100_000);
const dateIn = (format: string) => ({ type: 'date', formats: [format] });

const CASES: Case[] = [
  // A phone number that reads as a date, and dates under a phone field.
  { field: { type: 'date' }, cell: '"+1 202 555 0143"', stored: '!type' },
  { field: { type: 'date', formats: ['DD/MM/YYYY', 'YYYY-MM-DD'] }, cell: '"2025550143"', stored: '!type' },
  { field: { type: 'date', formats: ['excel'] }, cell: '"202-555-0143"', stored: '!type' },
  { field: { type: 'phone', defaultCountry: 'US' }, cell: '"2025-03-04"', stored: '!type' },
  { field: { type: 'phone', defaultCountry: 'US' }, cell: '"03/04/2025"', stored: '!type' },
  { field: { type: 'phone', defaultCountry: 'US' }, cell: '"(202) 555-0143"', stored: '"+12025550143"' },
  // 1.234 and 1,234 under each number format.
  { field: { type: 'number', numberFormat: 'us' }, cell: '"1.234"', stored: '1.234' },
  { field: { type: 'number', numberFormat: 'eu' }, cell: '"1.234"', stored: '1234' },
  { field: { type: 'number', numberFormat: 'auto' }, cell: '"1.234"', stored: '!ambiguous_number' },
  { field: { type: 'number', numberFormat: 'us' }, cell: '"1,234"', stored: '1234' },
  { field: { type: 'number', numberFormat: 'eu' }, cell: '"1,234"', stored: '1.234' },
  { field: { type: 'integer', numberFormat: 'us' }, cell: '"1.234"', stored: '!type' },
  { field: { type: 'number', numberFormat: 'eu' }, cell: '1.234', stored: '1.234' },
  // 03/04/2025 under each date format.
  { field: dateIn('DD/MM/YYYY'), cell: '"03/04/2025"', stored: '"2025-04-03"' },
  { field: dateIn('MM/DD/YYYY'), cell: '"03/04/2025"', stored: '"2025-03-04"' },
  { field: dateIn('YYYY-MM-DD'), cell: '"03/04/2025"', stored: '!type' },
  { field: dateIn('DD.MM.YYYY'), cell: '"03/04/2025"', stored: '!type' },
  { field: dateIn('DD-MM-YYYY'), cell: '"03/04/2025"', stored: '!type' },
  { field: dateIn('MM-DD-YYYY'), cell: '"03/04/2025"', stored: '!type' },
  { field: dateIn('YYYY/MM/DD'), cell: '"03/04/2025"', stored: '!type' },
  { field: dateIn('excel'), cell: '"03/04/2025"', stored: '!type' },
  { field: { type: 'date', formats: ['DD/MM/YYYY', 'MM/DD/YYYY'] }, cell: '"03/04/2025"', stored: '!ambiguous_date' },
  { field: { type: 'datetime', formats: ['MM/DD/YYYY'] }, cell: '"03/04/2025 10:30"', stored: '"2025-03-04T10:30:00.000Z"' },
  // Excel serial numbers: a date only where `excel` is declared, a number stays a number.
  { field: dateIn('excel'), cell: '45720', stored: '"2025-03-04"' },
  { field: dateIn('excel'), cell: '"45720"', stored: '"2025-03-04"' },
  { field: { type: 'date' }, cell: '45720', stored: '!type' },
  { field: { type: 'datetime', formats: ['excel'] }, cell: '45720.75', stored: '"2025-03-04T18:00:00.000Z"' },
  { field: { type: 'number' }, cell: '45720', stored: '45720' },
  // Leading zeros.
  { field: { type: 'string' }, cell: '"00123"', stored: '"00123"' },
  { field: { type: 'string', pattern: '^\\d{5}$' }, cell: '"02139"', stored: '"02139"' },
  { field: { type: 'enum', options: ['007', '7'] }, cell: '"007"', stored: '"007"' },
  { field: { type: 'integer' }, cell: '"007"', stored: '7' },
  { field: { type: 'phone', defaultCountry: 'FR' }, cell: '"01 42 68 53 00"', stored: '"+33142685300"' },
  // 20-digit integers: kept exactly, as written.
  { field: { type: 'integer' }, cell: '12345678901234567890', stored: '12345678901234567890' },
  { field: { type: 'integer' }, cell: '"12345678901234567890"', stored: '"12345678901234567890"' },
  { field: { type: 'integer' }, cell: '"-98765432109876543210"', stored: '"-98765432109876543210"' },
  { field: { type: 'integer' }, cell: '"1.00000000000000000001"', stored: '!type' },
  { field: { type: 'integer', max: 100 }, cell: '"12345678901234567890"', stored: '!max' },
  // Empty strings, blanks, null and missing cells.
  { field: { required: true }, cell: '""', stored: '!required' },
  { field: { required: true }, cell: '"   "', stored: '!required' },
  { field: { required: true }, cell: 'null', stored: '!required' },
  { field: { required: true }, cell: undefined, stored: '!required' },
  { field: { default: 'n/a' }, cell: '""', stored: '"n/a"' },
  { field: { default: 'n/a' }, cell: undefined, stored: '"n/a"' },
  { field: { type: 'integer' }, cell: '""', stored: '""' },
  { field: { type: 'integer' }, cell: undefined, stored: undefined },
  { field: { type: 'integer' }, cell: 'null', stored: 'null' },
  // Keys that are Object.prototype's members: own cells like any other.
  { key: '__proto__', field: { type: 'integer', required: true }, cell: '"12"', stored: '12' },
  { key: 'constructor', field: { transforms: ['uppercase'] }, cell: '"c"', stored: '"C"' },
  { key: 'toString', field: { type: 'boolean' }, cell: '"maybe"', stored: '!type' },
  // A pattern that backtracks catastrophically elsewhere, against a 100 000-character cell.
  { field: { pattern: '(a+)+$' }, cell: JSON.stringify(`${LONG_A}!`), stored: '!pattern' },
  { field: { pattern: '^(a|aa)+$' }, cell: JSON.stringify(LONG_A), stored: JSON.stringify(LONG_A) },
];

const keyOf = (c: Case, index: number) => c.key ?? `c${index}`;
const FIELDS = CASES.map((c, index) => ({ key: keyOf(c, index), ...c.field }));
/** Each case's row, as JSON text (written by hand: `__proto__` must stay a member). */
const ROWS = CASES.map((c, index) => (c.cell === undefined ? '{}' : `{${JSON.stringify(keyOf(c, index))}:${c.cell}}`));

describe('rules: values that look like another type, through every door', () => {
  const { h, env } = useHarness();
  const importd = () => cliOnHarness(h);

  /** Each case's outcome in an import, read back from its NDJSON export with errors (the stored text, unparsed). */
  async function outcomes(importId: string): Promise<(string | undefined)[]> {
    const response = await call(h, 'GET', `/v1/imports/${importId}/export?format=ndjson&errors=true`, { key: env.secretKey });
    assert.equal(response.status, 200);
    const lines = (await response.text()).trim().split('\n');
    return CASES.map((c, index) => {
      const key = keyOf(c, index);
      const line = lines[index]!;
      const row = JSON.parse(line) as Record<string, unknown> & { _errors: { key: string; code: string }[] };
      const errors = row._errors.filter((e) => e.key === key);
      if (errors.length > 0) return errors.map((e) => `!${e.code}`).join(',');
      if (!Object.hasOwn(row, key)) return undefined;
      // JSON.parse rounds an integer past 2^53: such a cell is looked for as the text stored.
      const literal = /^-?\d{16,}$/.test(c.stored ?? '') && line.includes(`${JSON.stringify(key)}:${c.stored},`);
      return literal ? c.stored : JSON.stringify(row[key]);
    });
  }

  function assertOutcomes(actual: (string | undefined)[], door: string): void {
    CASES.forEach((c, index) => {
      assert.equal(actual[index], c.stored, `${door}: ${JSON.stringify(c.field)} ${c.cell?.slice(0, 40)}`);
    });
  }

  it('a JSON body, an NDJSON stream and a JSON body large enough for the parse worker store and refuse alike', async () => {
    const created = await call(h, 'POST', '/v1/templates', { key: env.secretKey, body: { key: 'look-alikes', schema: { fields: FIELDS } } });
    assert.equal(created.status, 201, await created.clone().text());
    // Valid rows after the cases, enough for the body to be parsed by the worker.
    const padding = `{"pad":${JSON.stringify('p'.repeat(100_000))}}`;
    const paddingRows = Math.ceil(PARSE_IN_WORKER_BYTES / padding.length);
    const bodies = {
      json: `{"meta":{"schemaKey":"look-alikes"},"rows":[${ROWS.join(',')}]}`,
      ndjson: `{"meta":{"schemaKey":"look-alikes"}}\n${ROWS.join('\n')}\n`,
      worker: `{"meta":{"schemaKey":"look-alikes"},"rows":[${[...ROWS, ...Array(paddingRows).fill(padding)].join(',')}]}`,
    };
    for (const [door, rawBody] of Object.entries(bodies)) {
      const response = await call(h, 'POST', '/v1/imports', { key: env.secretKey, rawBody, contentType: door === 'ndjson' ? 'application/x-ndjson' : 'application/json' });
      assert.equal(response.status, 201, `${door}: ${await response.clone().text()}`);
      const imported = await json(response);
      assert.equal(imported.meta.counts.totalRows, door === 'worker' ? CASES.length + paddingRows : CASES.length, door);
      assertOutcomes(await outcomes(imported.id), door);
    }
  });

  it('importd import of an NDJSON file and of a CSV file (its cells all texts) store and refuse alike', async () => {
    await call(h, 'POST', '/v1/templates', { key: env.secretKey, body: { key: 'look-alikes-cli', schema: { fields: FIELDS } } });
    const ndjsonFile = path.join(h.dir, 'look-alikes.ndjson');
    writeFileSync(ndjsonFile, `${ROWS.join('\n')}\n`);
    const fromNdjson = await importd()('import', ndjsonFile, '--env', env.name, '--template', 'look-alikes-cli', '--json');
    assert.equal(fromNdjson.code, 0, fromNdjson.stderr);
    assertOutcomes(await outcomes(JSON.parse(fromNdjson.stdout).id), 'importd import .ndjson');

    // A CSV file: the cases whose cell is a text, each in its own column and row (the other cells empty).
    const texts = CASES.map((c, index) => ({ c, index })).filter(({ c }) => c.cell?.startsWith('"'));
    const csvEscape = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);
    const header = texts.map(({ c, index }) => csvEscape(keyOf(c, index))).join(',');
    const lines = texts.map(({ c }, row) => texts.map((_, column) => (column === row ? csvEscape(JSON.parse(c.cell!) as string) : '')).join(','));
    const csvFile = path.join(h.dir, 'look-alikes.csv');
    writeFileSync(csvFile, `${header}\r\n${lines.join('\r\n')}\r\n`);
    await call(h, 'POST', '/v1/templates', { key: env.secretKey, body: { key: 'look-alikes-csv', schema: { fields: texts.map(({ c, index }) => ({ key: keyOf(c, index), ...c.field })) } } });
    const fromCsv = await importd()('import', csvFile, '--env', env.name, '--template', 'look-alikes-csv', '--json');
    assert.equal(fromCsv.code, 0, fromCsv.stderr);
    const id = JSON.parse(fromCsv.stdout).id as string;
    const response = await call(h, 'GET', `/v1/imports/${id}/export?format=ndjson&errors=true`, { key: env.secretKey });
    const rows = (await response.text()).trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown> & { _errors: { key: string; code: string }[] });
    texts.forEach(({ c, index }, row) => {
      const key = keyOf(c, index);
      const errors = rows[row]!._errors.filter((e) => e.key === key).map((e) => `!${e.code}`);
      const stored = errors.length > 0 ? errors.join(',') : JSON.stringify(Object.hasOwn(rows[row]!, key) ? rows[row]![key] : undefined);
      assert.equal(stored, c.stored, `importd import .csv: ${JSON.stringify(c.field)} ${c.cell?.slice(0, 40)}`);
    });
  });
});
