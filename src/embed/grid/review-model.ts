import { setOwn } from '../../lib/own-member';
import type { RuleError } from '../../rules';
import type { Rows } from '../rows';
import { cellChecker, rowChecker, storedText, type PageRules, type RowAnswer } from '../validate';
import { inSlices } from './slices';

/** A field as a column of the review: its key, label and the file column it reads (-1: not mapped). */
export interface ReviewColumn {
  key: string;
  label: string;
  column: number;
}

/**
 * The rows under review: the file's data rows (edits kept beside the cells as read, rows.ts), each row's errors as the server would
 * report them, and the view (all rows, or only those with problems). Rows are numbered from 0.
 */
export class ReviewModel {
  /** Errors by row; only invalid rows have an entry (a million valid rows cost nothing). */
  private errors = new Map<number, RuleError[]>();
  private pass = 0;
  /** A pass was left unfinished (a newer one started meanwhile): the next pass checks every row. */
  private unfinished = false;
  private display: ((record: Record<string, string>) => RowAnswer) | undefined;
  onlyProblems = false;
  skipInvalid = false;
  /** Row numbers of the current view (undefined: every row in order). */
  private view: Int32Array | undefined;

  constructor(
    readonly rows: Rows,
    readonly columns: readonly ReviewColumn[],
    readonly rules: PageRules | undefined,
  ) {
    this.display = rules === undefined ? undefined : cellChecker(rules.rules);
  }

  get invalidRows(): number {
    return this.errors.size;
  }

  /** Rows in the current view. */
  get viewSize(): number {
    return this.view === undefined ? this.rows.length : this.view.length;
  }

  /** The row number at a position of the view. */
  rowAt(position: number): number {
    return this.view === undefined ? position : this.view[position]!;
  }

  rowErrors(row: number): RuleError[] | undefined {
    return this.errors.get(row);
  }

  /** The record the importer sends for a row: each mapped field's cell text under its key. */
  record(row: number): Record<string, string> {
    const record: Record<string, string> = {};
    // setOwn: a field keyed `__proto__` stays a field (an assignment would set the prototype and lose it).
    for (const { key, column } of this.columns) if (column >= 0) setOwn(record, key, this.rows.cell(row, column));
    return record;
  }

  /** What the server will store for a row's cells, where it differs from their text (trimmed, ISO dates, E.164 phones, ...). */
  storedValues(row: number): Map<string, string> {
    const changed = new Map<string, string>();
    if (this.display === undefined) return changed;
    const record = this.record(row);
    const { row: stored } = this.display(record);
    for (const { key } of this.columns) {
      const text = storedText(Object.hasOwn(stored, key) ? stored[key] : undefined);
      if (text !== undefined && text !== (record[key] ?? '')) changed.set(key, text);
    }
    return changed;
  }

  cellText(row: number, column: ReviewColumn): string {
    return column.column < 0 ? '' : this.rows.cell(row, column.column);
  }

  setCell(row: number, column: ReviewColumn, text: string): void {
    if (column.column >= 0) this.rows.set(row, column.column, text);
  }

  /** Rows whose cell in `column` reads exactly `text`, found in slices (a million rows never block the page). */
  async rowsHolding(column: ReviewColumn, text: string): Promise<number[]> {
    const found: number[] = [];
    if (column.column >= 0) await inSlices(this.rows.length, (row) => this.rows.cell(row, column.column) === text && found.push(row));
    return found;
  }

  /** Replaces `find` by `replacement` in every cell of `column`; the rows it changes (found in slices), in order. */
  async replaceInColumn(column: ReviewColumn, find: string, replacement: string): Promise<number[]> {
    const edited: number[] = [];
    if (column.column < 0 || find === '') return edited;
    await inSlices(this.rows.length, (row) => this.rows.cell(row, column.column).includes(find) && edited.push(row));
    this.rows.replaceAll(column.column, find, replacement);
    return edited;
  }

  /**
   * Checks every row in order (rows seen earlier decide uniqueness, as on the server), yielding to the page
   * between slices; a newer pass started meanwhile wins. `edited` rows alone are re-checked when no rule
   * looks across rows and no pass was left unfinished (its rows would keep stale errors).
   */
  async check(edited?: readonly number[], onProgress?: (fraction: number) => void): Promise<boolean> {
    const pass = ++this.pass;
    const rules = this.rules;
    if (rules === undefined) return true;
    const current = () => pass === this.pass;
    if (edited !== undefined && !rules.crossRow && !this.unfinished) {
      this.unfinished = true;
      const check = rowChecker(rules.rules);
      if (!(await inSlices(edited.length, (index) => this.keep(edited[index]!, check(this.record(edited[index]!)).errors), current))) return false;
    } else {
      this.unfinished = true;
      const check = rowChecker(rules.rules, this.skipInvalid);
      const errors = new Map<number, RuleError[]>();
      const step = (row: number) => {
        const answer = check(this.record(row));
        if (answer.errors !== undefined) errors.set(row, answer.errors);
      };
      if (!(await inSlices(this.rows.length, step, current, onProgress))) return false;
      this.errors = errors;
    }
    this.unfinished = false;
    this.refreshView();
    return true;
  }

  private keep(row: number, errors: RuleError[] | undefined): void {
    if (errors === undefined) this.errors.delete(row);
    else this.errors.set(row, errors);
  }

  /** Recomputes the view after a check or a change of the filter. */
  refreshView(): void {
    if (!this.onlyProblems) {
      this.view = undefined;
      return;
    }
    this.view = Int32Array.from(this.errors.keys()).sort();
  }

  /** The records to send: every row's, or the valid rows' when invalid rows are skipped. */
  recordsToSend(): Record<string, string>[] {
    const records: Record<string, string>[] = [];
    for (let row = 0; row < this.rows.length; row++) if (!this.skipInvalid || !this.errors.has(row)) records.push(this.record(row));
    return records;
  }
}
