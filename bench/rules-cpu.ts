// npm run bench -- --rules-cpu: where the CPU of a template's rules goes, per row, in the code the server runs.
// The rows and template of bench/validation.ts (10 typed fields, one unique, one enum of 200 options) through
// validateRows, and each part of that path timed on its own, as a share of it: what to work on next.
import path from 'node:path';
import { requireBundled } from '../scripts/server-bundle.mjs';
import type { measureRulesCpu } from './rules-cpu-work';
import { TYPED_FIELDS, typedRows } from './validation';

type Recorder = (name: string, value: number, unit: string, floor?: number, target?: string) => void;

/** Rounds each figure is the median of. */
const ROUNDS = 5;

export async function rulesCpu(record: Recorder, count: number): Promise<void> {
  const { measureRulesCpu: measure } = (await requireBundled(path.join(__dirname, 'rules-cpu-work.ts'))) as { measureRulesCpu: typeof measureRulesCpu };
  const texts = typedRows(count).map((row) => JSON.stringify(row));
  const { pathMicros, parts } = await measure({ fields: TYPED_FIELDS }, texts, ROUNDS);
  record(`rules CPU per row, ${count} rows, 10 typed fields`, pathMicros, 'µs');
  for (const part of parts) {
    record(`  ${part.name}`, part.micros, 'µs');
    record(`    share of the rules' path`, (100 * part.micros) / pathMicros, '%');
  }
  const timed = parts.reduce((sum, part) => sum + part.micros, 0);
  record('  the rest (row loop, changed cells written back, slices)', pathMicros - timed, 'µs');
}
