// The timed loops of bench/rules-cpu.ts, which bundles this file as the server is bundled (its esbuild plugins
// included): the rules' CPU is that of the code the server runs, not of the sources under tsx.
import { compileRules, RowValidator, type CompiledRules } from '../src/rules';
import { HashSet, hashText } from '../src/rules/unique';
import { CellStatsCollector } from '../src/services/imports/cell-stats';
import { DeclaredRowText } from '../src/services/imports/declared-row-text';
import { validateRows } from '../src/services/imports/validate-rows';

/** CPU µs per row of one part of the rules' path. */
export interface RulePart {
  name: string;
  micros: number;
}

export interface RulesCpu {
  /** validateRows over every row: what an import into the typed template runs that one without fields does not. */
  pathMicros: number;
  /** Its parts, timed on their own: reading the cells from the text, each field's cell check, uniqueness, statistics. */
  parts: RulePart[];
}

/** Rows a slice, as the writer hands them to validateRows. */
const SLICE = 1000;

/**
 * The CPU per row of the rules' path over `texts` (the rows' JSON texts, as the server receives them) under
 * `schema`, and of its parts; each the median of `rounds`, with the rules compiled afresh each round (the server
 * compiles them per import, and the phone rule's memo must start empty).
 */
export async function measureRulesCpu(schema: unknown, texts: readonly string[], rounds: number): Promise<RulesCpu> {
  const compile = () => compileRules(schema) ?? failed('the bench schema declares no rules');
  const rows = texts.map((text) => JSON.parse(text) as Record<string, unknown>);
  const stored = await storedRows(compile(), texts);
  const perRow = (run: () => void) => median(Array.from({ length: rounds }, () => cpuMicros(run) / texts.length));

  let sink = 0;
  const pathMicros = median(await sequence(rounds, async () => {
    const started = process.cpuUsage();
    const validated = validateRows(compile(), { slices: slicesOf(texts), stats: () => failed('not read') });
    for await (const slice of validated.slices) sink += 'length' in slice ? slice.length : 0;
    if (validated.counts().validRows !== texts.length) failed(`the bench rows are not all valid: ${JSON.stringify(validated.counts())}`);
    return elapsed(started) / texts.length;
  }));

  const parts: RulePart[] = [
    {
      name: 'cells read from the row text',
      micros: perRow(() => {
        const rules = compile();
        const reader = new DeclaredRowText(rules, new RowValidator(rules), new CellStatsCollector());
        for (const text of texts) sink += reader.read(text) ? 1 : 0;
      }),
    },
  ];
  for (const cell of compile().cells) {
    const values = rows.map((row) => row[cell.key]).filter((value): value is string | number | boolean => value !== undefined && value !== null && value !== '');
    const type = (schema as { fields: { key: string; type: string }[] }).fields.find((field) => field.key === cell.key)?.type;
    parts.push({
      name: `${cell.key} (${type}${cell.unique ? ', unique' : ''})`,
      micros: perRow(() => {
        const fresh = compile().cells.find((other) => other.key === cell.key)!;
        for (const value of values) sink += fresh.check(value) === null ? 1 : 0;
      }),
    });
  }
  const uniqueKeys = compile().cells.filter((cell) => cell.unique).map((cell) => cell.key);
  parts.push({
    name: 'unique (hash sets)',
    micros: perRow(() => {
      const sets = uniqueKeys.map(() => new HashSet());
      for (const row of stored) uniqueKeys.forEach((key, i) => (sink += sets[i]!.add(hashText(String(row[key]))) ? 1 : 0));
    }),
  });
  parts.push({
    name: 'cell statistics',
    micros: perRow(() => {
      const collector = new CellStatsCollector();
      for (const row of stored) for (const key in row) collector.add(key, row[key] as string | number | boolean | null);
    }),
  });
  if (sink < 0) failed('unreachable: keeps the loops from being optimised away');
  return { pathMicros, parts };
}

/** The rows as the validator stores them (transformed), for the parts that take stored rows. */
async function storedRows(rules: CompiledRules, texts: readonly string[]): Promise<Record<string, unknown>[]> {
  const validated = validateRows(rules, { slices: slicesOf(texts), stats: () => failed('not read') });
  const rows: Record<string, unknown>[] = [];
  for await (const slice of validated.slices) for (const text of slice as readonly string[]) rows.push(JSON.parse(text) as Record<string, unknown>);
  return rows;
}

function* slicesOf(texts: readonly string[]): Generator<readonly string[]> {
  for (let start = 0; start < texts.length; start += SLICE) yield texts.slice(start, start + SLICE);
}

async function sequence<T>(count: number, run: () => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let i = 0; i < count; i++) results.push(await run());
  return results;
}

function cpuMicros(run: () => void): number {
  const started = process.cpuUsage();
  run();
  return elapsed(started);
}

function elapsed(started: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(started);
  return user + system;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function failed(message: string): never {
  throw new Error(message);
}
