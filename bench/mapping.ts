/**
 * Accuracy and speed benchmark of the offline header matcher.
 *   npm run bench:mapping [-- --errors] [-- --names-only]
 * Reads ../shared/headermap/*.jsonl (override with HEADERMAP_DIR), scores the
 * matcher and an exact-match baseline with the metric of that folder's README,
 * and times synthetic 50x50 and 1000x1000 inputs, then the largest requests the service accepts or refuses
 * (500 x 500, the default budget) with the longest event-loop stall. Prints tables; writes nothing.
 * --names-only drops every header's samples and description first: the condition of data that carries
 * names alone (most public schema-matching ground truth).
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { matchHeaders, matchHeaderSteps } from '../src/services/mapping/match-headers';
import { runInSlices } from '../src/services/mapping/steps';
import type { HeaderItem, MapHeadersInput } from '../src/services/mapping/schemas';

interface Case extends MapHeadersInput {
  source: string;
  group: string;
  truth: Record<string, string | string[] | null>;
}
interface Tally {
  tp: number;
  fp: number;
  fn: number;
  nulls: number;
  nullsKept: number;
}

const dir = process.env.HEADERMAP_DIR ?? path.resolve(process.cwd(), '../shared/headermap');
const showErrors = process.argv.includes('--errors');
const namesOnly = process.argv.includes('--names-only');
const nameOnly = ({ key, label }: HeaderItem): HeaderItem => ({ key, label });

function emptyTally(): Tally {
  return { tp: 0, fp: 0, fn: 0, nulls: 0, nullsKept: 0 };
}

/**
 * Kinds of answer per key, next to the right ones: a key with a counterpart left unmatched or mapped wrong,
 * a key without one mapped (TP = found, FP = wrong + extra, FN = missed + wrong).
 */
type ErrorKind = 'found' | 'missed' | 'wrong' | 'extra';
const errorKinds = new Map<string, Record<ErrorKind, number>>();

function score(c: Case, predicted: Record<string, string | undefined>, into: Tally[], kinds?: Record<ErrorKind, number>): string[] {
  const errors: string[] = [];
  for (const [key, truth] of Object.entries(c.truth)) {
    const pred = predicted[key];
    const ok = truth === null ? [] : Array.isArray(truth) ? truth : [truth];
    for (const t of into) {
      if (pred !== undefined && ok.includes(pred)) t.tp++;
      else {
        if (pred !== undefined) t.fp++;
        if (ok.length > 0) t.fn++;
      }
      if (ok.length === 0) {
        t.nulls++;
        if (pred === undefined) t.nullsKept++;
      }
    }
    if (kinds && pred !== undefined && ok.includes(pred)) kinds.found++;
    if (pred === undefined ? ok.length > 0 : !ok.includes(pred)) {
      if (kinds) kinds[pred === undefined ? 'missed' : ok.length > 0 ? 'wrong' : 'extra']++;
      const label = c.schemaHeaders.find((h) => h.key === key)?.label ?? key;
      errors.push(`  ${label} [${key}] -> ${pred ?? '(none)'}   truth: ${JSON.stringify(truth)}`);
    }
  }
  return errors;
}

/** Baseline: lower-case, strip punctuation, equal label or equal key, first come first served. */
function exactMatch(c: Case): Record<string, string> {
  const norm = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
  const same = (a: HeaderItem, b: HeaderItem) => (norm(a.label) !== '' && norm(a.label) === norm(b.label)) || norm(a.key) === norm(b.key);
  const used = new Set<string>();
  const out: Record<string, string> = {};
  for (const s of c.schemaHeaders) {
    const f = c.fileHeaders.find((h) => !used.has(h.key) && same(h, s));
    if (f) {
      out[s.key] = f.key;
      used.add(f.key);
    }
  }
  return out;
}

function metrics(t: Tally): string[] {
  const p = t.tp / Math.max(1, t.tp + t.fp);
  const r = t.tp / Math.max(1, t.tp + t.fn);
  const f1 = p + r === 0 ? 0 : (2 * p * r) / (p + r);
  return [p, r, f1, t.nulls === 0 ? NaN : t.nullsKept / t.nulls].map((x) => (Number.isNaN(x) ? '  -  ' : x.toFixed(3)));
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

function printTable(rows: string[][]): void {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const r of rows) console.log(r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  '));
}

const header = ['', 'cases', 'P', 'R', 'F1', 'null-kept', 'base P', 'base R', 'base F1', 'p50 ms', 'p99 ms'];
const fileRows: string[][] = [header];
const groupRows: string[][] = [header];
for (const name of readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort()) {
  const cases = readFileSync(path.join(dir, name), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Case)
    .map((c) => (namesOnly ? { ...c, schemaHeaders: c.schemaHeaders.map(nameOnly), fileHeaders: c.fileHeaders.map(nameOnly) } : c));
  const total = emptyTally();
  const base = emptyTally();
  const groups = new Map<string, { t: Tally; b: Tally; n: number; times: number[] }>();
  const times: number[] = [];
  for (const c of cases) {
    const g = groups.get(c.group) ?? groups.set(c.group, { t: emptyTally(), b: emptyTally(), n: 0, times: [] }).get(c.group)!;
    const started = performance.now();
    const { mappings } = matchHeaders(c);
    const ms = performance.now() - started;
    times.push(ms);
    g.times.push(ms);
    g.n++;
    const predicted = Object.fromEntries(Object.entries(mappings).map(([k, v]) => [k, v.fileKey]));
    const kindsKey = `${name}:${c.group}`;
    const kinds = errorKinds.get(kindsKey) ?? errorKinds.set(kindsKey, { found: 0, missed: 0, wrong: 0, extra: 0 }).get(kindsKey)!;
    const errors = score(c, predicted, [total, g.t], kinds);
    score(c, exactMatch(c), [base, g.b]);
    if (showErrors && errors.length > 0) console.log(`${name} ${c.source}\n${errors.join('\n')}`);
  }
  const row = (label: string, n: number, t: Tally, b: Tally, ts: number[]) => {
    const sorted = [...ts].sort((x, y) => x - y);
    const [bp, br, bf] = metrics(b);
    return [label, String(n), ...metrics(t), bp!, br!, bf!, quantile(sorted, 0.5).toFixed(2), quantile(sorted, 0.99).toFixed(2)];
  };
  fileRows.push(row(name, cases.length, total, base, times));
  for (const [g, v] of [...groups].sort(([a], [b]) => a.localeCompare(b))) groupRows.push(row(`${name}:${g}`, v.n, v.t, v.b, v.times));
}
console.log(`Header mapping accuracy (${dir}${namesOnly ? ', names only' : ''})\n`);
printTable(fileRows);
console.log('\nPer group\n');
printTable(groupRows);
if (showErrors) {
  console.log('\nAnswers per group: found (right), missed (a counterpart, none predicted), wrong (a counterpart, another predicted), extra (no counterpart, one predicted)\n');
  const kindNames: ErrorKind[] = ['found', 'missed', 'wrong', 'extra'];
  printTable([['', ...kindNames], ...[...errorKinds].sort(([a], [b]) => a.localeCompare(b)).map(([g, k]) => [g, ...kindNames.map((n) => String(k[n]))])]);
}

// Synthetic speed cases built from a seeded generator, independent of the vocabulary.
function syntheticCase(n: number, seed: number): MapHeadersInput {
  let state = seed;
  const rand = () => ((state = (state * 1103515245 + 12345) % 2147483648) / 2147483648);
  const words = ('customer order invoice product item account contact billing shipping home work email phone mobile street city ' +
    'postal code country company department title first last name date created updated due start end amount total price tax ' +
    'discount currency quantity unit weight status notes description category brand sku id number reference iban bic salary').split(' ');
  const pick = () => words[Math.floor(rand() * words.length)]!;
  const schemaHeaders: HeaderItem[] = [];
  const fileHeaders: HeaderItem[] = [];
  for (let i = 0; i < n; i++) {
    const label = `${pick()} ${pick()}${rand() < 0.5 ? ` ${pick()}` : ''} ${i}`;
    schemaHeaders.push({ key: `s${i}`, label });
    const variant = rand() < 0.5 ? label.toUpperCase().replace(/ /g, '_') : label.replace(/ (\w)/g, (_, c: string) => c.toUpperCase());
    fileHeaders.push({ key: `f${i}`, label: rand() < 0.8 ? variant : `${pick()} ${pick()} ${i}` });
  }
  fileHeaders.sort(() => rand() - 0.5);
  return { schemaHeaders, fileHeaders };
}

// CPU time next to wall time: on a busy machine the wall clock also counts time spent waiting for a core.
const speedRows: string[][] = [['synthetic', 'runs', 'median ms', 'max ms', 'median cpu ms', 'mapped']];
for (const [n, runs] of [[50, 200], [1000, 3]] as const) {
  const input = syntheticCase(n, 7);
  for (let w = 0; w < (n < 100 ? 20 : 1); w++) matchHeaders(input); // warm-up (JIT, caches)
  const ts: number[] = [];
  const cpu: number[] = [];
  let mapped = 0;
  for (let r = 0; r < runs; r++) {
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    mapped = Object.keys(matchHeaders(input).mappings).length;
    const used = process.cpuUsage(cpuStarted);
    ts.push(performance.now() - started);
    cpu.push((used.user + used.system) / 1000);
  }
  ts.sort((x, y) => x - y);
  cpu.sort((x, y) => x - y);
  const row = [quantile(ts, 0.5), ts[ts.length - 1]!, quantile(cpu, 0.5)].map((x) => x.toFixed(2));
  speedRows.push([`${n}x${n}`, String(runs), ...row, String(mapped)]);
}
console.log('\nSpeed\n');
printTable(speedRows);

// The request path: 500 x 500 (the item cap) run in slices against the default budget, and 500 x 500 labels
// of 200 characters (the label cap), refused by the budget; the longest stall of the event loop in each.
const BUDGET = 20_000_000;
function longLabels(n: number, prefix: string): HeaderItem[] {
  return Array.from({ length: n }, (_, i) => {
    const words = Array.from({ length: 40 }, (_, w) => `w${((i * 7919 + w * 104729 + prefix.length) % 99991).toString(36)}x`);
    return { key: `${prefix}${i}`, label: words.join(' ').slice(0, 200) };
  });
}
async function requestPath(): Promise<void> {
  // The stall is timer lateness (it counts waiting for a core on a busy machine); the longest step is the
  // matcher's own CPU time between two points where it can yield (a slice is ~10 ms plus at most one step).
  const rows: string[][] = [['request', 'answer', 'wall ms', 'longest stall ms', 'longest step cpu ms']];
  const cases: [string, MapHeadersInput][] = [
    ['500x500 short labels', syntheticCase(500, 11)],
    ['500x500 labels of 200 chars', { schemaHeaders: longLabels(500, 's'), fileHeaders: longLabels(500, 'file') }],
  ];
  for (const [name, input] of cases) {
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    const started = performance.now();
    let answer: string;
    try {
      answer = `${Object.keys((await runInSlices(matchHeaderSteps(input, { budget: BUDGET }))).mappings).length} mapped`;
    } catch (error) {
      answer = `refused (${/cost \d+/.exec((error as Error).message)?.[0] ?? (error as Error).message})`;
    }
    const wall = performance.now() - started;
    delay.disable();
    let longestStep = 0;
    const steps = matchHeaderSteps(input, { budget: BUDGET });
    for (;;) {
      const stepStarted = process.cpuUsage();
      let done = false;
      try {
        done = steps.next().done === true;
      } catch {
        done = true;
      }
      const used = process.cpuUsage(stepStarted);
      longestStep = Math.max(longestStep, (used.user + used.system) / 1000);
      if (done) break;
    }
    rows.push([name, answer, wall.toFixed(1), (delay.max / 1e6).toFixed(1), longestStep.toFixed(1)]);
  }
  console.log(`\nRequest path (budget ${BUDGET}, ~10 ms slices)\n`);
  printTable(rows);
}
void requestPath();
