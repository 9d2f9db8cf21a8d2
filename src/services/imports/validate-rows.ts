import { countRows, rowStrings, type RowTexts } from '../../db/store';
import { rowJsonText } from '../../lib/exact-json';
import { compileRules, requiresReview, RowValidator, type CompiledRules, type RuleError } from '../../rules';
import type { ServiceContext } from '../context';
import { RowsInvalidError, type RowErrorItem } from '../errors';
import { CellStatsCollector } from './cell-stats';
import { DeclaredRowText } from './declared-row-text';
import { ErrorSummaryCollector } from './error-summary';
import type { CheckedRows } from './check-rows';
import type { ImportCounts } from './schemas';

/** The first this many invalid cells are reported by a refused import (errorCount counts them all). */
export const MAX_REPORTED_ERRORS = 100;

/** Rows checked against a declared template: what the writer stores, and the server's counts once read. */
export interface ValidatedRows extends CheckedRows {
  counts(): ImportCounts;
  /** The invalid cells by field and code (ErrorSummaryCollector), JSON text; null when every row was valid. */
  errorSummary(): string | null;
}

/** A template's rules to run on its imports: its schema's JSON text and the rules compiled from it. */
export interface ImportRules {
  schemaText: string;
  rules: CompiledRules;
}

/** What an import's template asks of it, read once for the import. */
export interface ImportPolicy {
  /** Its rules (undefined: free-form, or nothing to run). */
  rules: ImportRules | undefined;
  /** Whether the import waits for a reviewer (the template's `review: "required"`). */
  review: boolean;
}

export async function importPolicy(ctx: ServiceContext, accountId: string, templateId: string): Promise<ImportPolicy> {
  const template = await ctx.store.templates.find(accountId, templateId);
  if (template === undefined) return { rules: undefined, review: false };
  const rules = rulesToRun(template.schema);
  return { rules: rules === undefined ? undefined : { schemaText: template.schema, rules }, review: requiresReview(JSON.parse(template.schema)) };
}

/** The rules a template schema (JSON text) declares, undefined when none can refuse or change a row. */
export function rulesToRun(schemaText: string): CompiledRules | undefined {
  const rules = compileRules(JSON.parse(schemaText));
  return rules?.trivial === false ? rules : undefined;
}

/**
 * Checks and transforms every row of an import against its template's rules as the writer reads the
 * slices, applying the template's policy: `keep` stores every row transformed (an invalid one with its
 * errors), `discard` stores only the valid ones, `reject` stores none once a row is invalid, reads the rest
 * to count their errors, and then throws validation_failed (422) with the first MAX_REPORTED_ERRORS.
 * Statistics are those of the rows stored.
 */
export function validateRows(rules: CompiledRules, rows: CheckedRows): ValidatedRows {
  const validator = new RowValidator(rules);
  const collector = new CellStatsCollector();
  const fromText = DeclaredRowText.takes(rules) ? new DeclaredRowText(rules, validator, collector) : undefined;
  const summary = new ErrorSummaryCollector();
  const reported: RowErrorItem[] = [];
  const counts: ImportCounts = { totalRows: 0, validRows: 0, erroredRows: 0, discardedRows: 0 };
  let errorCount = 0;
  let stored = 0;

  function validate(slice: RowTexts): RowTexts {
    const texts = rowStrings(slice);
    const out: string[] = [];
    // Created with the slice's first invalid row kept: a slice of valid rows goes as plain strings.
    let kept: (string | null)[] | undefined;
    for (const text of texts) {
      const rowIndex = counts.totalRows++;
      const fast = fromText?.read(text) === true;
      let row: Record<string, unknown> | undefined;
      let errors: RuleError[] | undefined;
      let changed = false;
      if (fast) errors = validator.checkDeclared();
      else ({ row, errors, changed } = validator.check(JSON.parse(text) as Record<string, unknown>));
      if (errors === undefined) counts.validRows++;
      else {
        // A row read from its text is built only to report its errors: the row its stored text holds.
        row ??= JSON.parse(fromText!.stored()) as Record<string, unknown>;
        counts.erroredRows++;
        errorCount += errors.length;
        summary.addRow(rowIndex, errors, row);
        for (const error of errors) {
          if (reported.length >= MAX_REPORTED_ERRORS) break;
          const value = Object.hasOwn(row, error.key) ? row[error.key] : null;
          reported.push({ rowIndex, key: error.key, code: error.code, message: error.message, value: value === undefined ? null : (value as RowErrorItem['value']) });
        }
        if (rules.onInvalid === 'discard') {
          counts.discardedRows++;
          continue;
        }
        if (rules.onInvalid === 'keep') {
          kept ??= new Array<string | null>(out.length).fill(null);
          kept[out.length] = storedErrors(errors);
        }
      }
      if (errorCount > 0 && rules.onInvalid === 'reject') continue;
      if (fast) {
        fromText!.count();
        out.push(fromText!.stored());
      } else {
        for (const key in row) collector.add(key, row![key] as string | number | boolean | null);
        out.push(changed ? rowJsonText(row!, text) : text);
      }
      if (kept !== undefined && kept.length < out.length) kept.push(null);
      stored++;
    }
    return kept === undefined ? out : { texts: out, errors: kept };
  }

  async function* slices() {
    for await (const slice of rows.slices) {
      const texts = validate(slice);
      if (errorCount > 0 && rules.onInvalid === 'reject') continue;
      if (countRows(texts) > 0) yield texts;
    }
    if (errorCount > 0 && rules.onInvalid === 'reject') throw new RowsInvalidError(reported, errorCount);
  }

  return {
    slices: slices(),
    stats: () => collector.result(stored),
    counts: () => ({ ...counts }),
    errorSummary: () => summary.result(),
    discard: rows.discard,
  };
}

/** A kept row's errors as stored: `[{key, code, message}]` (the value is the row's own cell). */
function storedErrors(errors: readonly { key: string; code: string; message: string }[]): string {
  return JSON.stringify(errors.map(({ key, code, message }) => ({ key, code, message })));
}
