// The cost of a template's rules: the same rows imported into a template of ten typed fields and into one
// without `fields` (nothing checked), on the same server, in turns. Used by bench/run.ts and bench/pg.ts.
import { cpuMs, median, medianPairRatio, request, timed, type Api, type TimedRun } from './http';

type Recorder = (name: string, value: number, unit: string, floor?: number, target?: string) => void;

/** 200 enum options, each with a label and an alternative (the lookups a country column needs). */
const OPTIONS = Array.from({ length: 200 }, (_, i) => ({ value: `C${i}`, label: `Country ${i}`, alternatives: [`Land ${i}`] }));

/** Ten typed fields, one of them `unique`, one an enum of 200 options. */
export const TYPED_FIELDS = [
  { key: 'name', type: 'string', required: true, transforms: ['trim'], maxLength: 100 },
  { key: 'email', type: 'email', required: true, unique: true, transforms: ['lowercase'] },
  { key: 'phone', type: 'phone', defaultCountry: 'US' },
  { key: 'country', type: 'enum', options: OPTIONS },
  { key: 'amount', type: 'number', numberFormat: 'us', decimals: 2, min: 0 },
  { key: 'quantity', type: 'integer', min: 0, max: 1_000_000 },
  { key: 'signed_up', type: 'date', formats: ['YYYY-MM-DD', 'DD/MM/YYYY'] },
  { key: 'sku', type: 'string', pattern: '^[A-Z]{3}-\\d{4}$', errorMessage: 'a SKU is three capitals, a dash and four digits' },
  { key: 'active', type: 'boolean' },
  { key: 'website', type: 'url' },
];

/**
 * Rows as a backend or the importer sends them: half in the stored form already (numbers, E.164, ISO dates,
 * canonical options), half as a spreadsheet writes them (texts, national phone numbers, day-first dates,
 * option labels in another case), so that most rows are transformed. Every row is valid.
 */
export function typedRows(count: number, offset = 0): Record<string, string | number | boolean>[] {
  const rows = new Array(count);
  for (let i = 0; i < count; i++) {
    const n = offset + i;
    const raw = n % 2 === 1;
    const day = 1 + (n % 28);
    const month = 1 + (n % 12);
    // A distinct number a row (a phone column rarely repeats): exchanges 220-999, lines 0000-9999.
    const exchange = 220 + (Math.floor(n / 10_000) % 780);
    const line = String(n % 10_000).padStart(4, '0');
    rows[i] = {
      name: `Person ${n % 997}`,
      email: raw ? `User${n}@Example.com` : `user${n}@example.com`,
      phone: raw ? `(212) ${exchange}-${line}` : `+1212${exchange}${line}`,
      country: n % 3 === 0 ? `C${n % 200}` : n % 3 === 1 ? `Country ${n % 200}` : `land ${n % 200}`,
      amount: raw ? `${(n % 900) + 1},${String(n % 1000).padStart(3, '0')}.25` : Math.round(n * 137.5) / 100,
      quantity: raw ? String(n % 1000) : n % 1000,
      signed_up: raw ? `${pad(day)}/${pad(month)}/2024` : `2024-${pad(month)}-${pad(day)}`,
      sku: `ABC-${line}`,
      active: raw ? (n % 3 === 0 ? 'yes' : 'no') : n % 3 === 0,
      website: `https://example.com/u/${n}`,
    };
  }
  return rows;
}

const pad = (n: number) => (n < 10 ? `0${n}` : String(n));

export function typedBody(count: number, schemaKey: string): string {
  return JSON.stringify({ rows: typedRows(count), meta: { schemaKey } });
}

/** Creates the typed template (`bench-typed`) and the free-form one (`bench-untyped`) through the API. */
export async function createBenchTemplates(api: Api): Promise<void> {
  await request(api, 'POST', '/v1/templates', JSON.stringify({ key: 'bench-typed', schema: { fields: TYPED_FIELDS } }));
  await request(api, 'POST', '/v1/templates', JSON.stringify({ key: 'bench-untyped', schema: { columns: TYPED_FIELDS.map((f) => f.key) } }));
}

/** Pairs of imports the figure is the median of. */
export const RULES_PAIRS = 5;

/**
 * The same `count` rows posted into the typed template and into the free-form one, in pairs whose order
 * alternates (ABBA), after one of each to warm both paths; the figure is the median of the pairs' own ratios
 * (the machine's speed moves in phases of seconds, which the pairs' ratios mostly cancel out). The server's
 * CPU time (all its threads, from /proc) per import is printed too: on a busy machine the wall-time ratio
 * shows the CPU the rules take rather than their overlap with the writes.
 */
export async function validationCost(record: Recorder, api: Api, count: number, pairs: number, serverPid: number, label = ''): Promise<void> {
  const typed = Buffer.from(typedBody(count, 'bench-typed'));
  const untyped = Buffer.from(typedBody(count, 'bench-untyped'));
  const created = JSON.parse((await timed(api, 'POST', '/v1/imports', typed)).text) as { meta: { counts?: { validRows: number } } };
  if (created.meta.counts?.validRows !== count) throw new Error(`the typed bench rows are not all valid: ${JSON.stringify(created.meta.counts)}`);
  await timed(api, 'POST', '/v1/imports', untyped);
  const withRules: TimedRun[] = [];
  const without: TimedRun[] = [];
  for (let r = 0; r < pairs; r++) {
    for (const rules of r % 2 === 0 ? [true, false] : [false, true]) {
      const cpu = cpuMs(serverPid);
      const { ms } = await timed(api, 'POST', '/v1/imports', rules ? typed : untyped);
      (rules ? withRules : without).push({ ms, cpu: cpuMs(serverPid) - cpu });
    }
  }
  record(`${label}POST /imports ${count} rows, 10 typed fields`, median(withRules.map((run) => run.ms)), 'ms', median(without.map((run) => run.ms)));
  record(`${label}  typed / without fields, median of the pairs`, medianPairRatio(withRules, without, 'ms'), 'x', undefined, '<= 1.5');
  record(`${label}  server CPU per import, typed / without fields`, medianPairRatio(withRules, without, 'cpu'), 'x');
}
