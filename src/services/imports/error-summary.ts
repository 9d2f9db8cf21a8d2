import type { ImportErrors } from './schemas';

/** Examples kept of each field and code. */
export const ERROR_EXAMPLES = 3;
/** Groups (field, code) summarised at most: a template of 2 000 fields could otherwise make thousands. */
export const MAX_ERROR_GROUPS = 500;
/** An example's text value is cut to this many characters: the summary stays small whatever the cells hold. */
const EXAMPLE_CHARS = 200;

type Value = string | number | boolean | null;
type Group = ImportErrors['errors'][number];

/**
 * The summary of an import's invalid cells by field and code, with counts and the first ERROR_EXAMPLES
 * (rowIndex, value) of each: collected while the writer validates the rows, stored with the import when it
 * completes, so GET /imports/{id}/errors reads one value instead of the rows.
 */
export class ErrorSummaryCollector {
  private readonly groups = new Map<string, Group>();
  private errorCount = 0;
  private invalidRows = 0;
  private omittedGroups = 0;

  addRow(rowIndex: number, errors: readonly { key: string; code: string }[], row: Record<string, unknown>): void {
    this.invalidRows++;
    for (const error of errors) {
      this.errorCount++;
      const id = `${error.key}\u0000${error.code}`;
      let group = this.groups.get(id);
      if (group === undefined) {
        if (this.groups.size >= MAX_ERROR_GROUPS) {
          this.omittedGroups++;
          continue;
        }
        this.groups.set(id, (group = { key: error.key, code: error.code, count: 0, examples: [] }));
      }
      group.count++;
      if (group.examples.length < ERROR_EXAMPLES) group.examples.push({ rowIndex, value: exampleValue(Object.hasOwn(row, error.key) ? row[error.key] : null) });
    }
  }

  /** The summary's JSON text, or null when no row was invalid. */
  result(): string | null {
    if (this.invalidRows === 0) return null;
    const summary: ImportErrors = { invalidRows: this.invalidRows, errorCount: this.errorCount, omittedGroups: this.omittedGroups, errors: [...this.groups.values()] };
    return JSON.stringify(summary);
  }
}

function exampleValue(value: unknown): Value {
  if (typeof value === 'string') return value.length > EXAMPLE_CHARS ? value.slice(0, EXAMPLE_CHARS) : value;
  return value === undefined ? null : (value as Value);
}
