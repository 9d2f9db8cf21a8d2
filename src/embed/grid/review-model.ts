import { setOwn } from '../../lib/own-member';
import type { RuleError } from '../../rules';
import { cellChecker, rowChecker, storedText, type PageRules, type RowAnswer } from '../validate';

/** A field as a column of the review: its key, label and the file column it reads (-1: not mapped). */
export interface ReviewColumn {
  key: string;
  label: string;
  column: number;
}

/** Rows checked between two yields to the page: a pass over a million rows never blocks it for long. */
const SLICE_MS = 12;

/**
 * The rows under review: the file's data rows (edited in place), each row's errors as the server would
 * report them, and the view (all rows, or only those with problems). Rows are numbered from 0.
 */
export class ReviewModel {
  /** Errors by row; only invalid rows have an entry (a million valid rows cost nothing). */
  private errors = new Map<number, RuleError[]>();
  private pass = 0;
  private display: ((record: Record<string, string>) => RowAnswer) | undefined;
  onlyProblems = false;
  skipInvalid = false;
  /** Row numbers of the current view (undefined: every row in order). */
  private view: Int32Array | undefined;

  constructor(
    readonly rows: string[][],
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
    const cells = this.rows[row]!;
    for (const { key, column } of this.columns) if (column >= 0) setOwn(record, key, cells[column] ?? '');
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
    return column.column < 0 ? '' : (this.rows[row]![column.column] ?? '');
  }

  setCell(row: number, column: ReviewColumn, text: string): void {
    if (column.column >= 0) this.rows[row]![column.column] = text;
  }

  /** Rows whose cell in `column` reads exactly `text`. */
  rowsHolding(column: ReviewColumn, text: string): number[] {
    const found: number[] = [];
    if (column.column < 0) return found;
    for (let row = 0; row < this.rows.length; row++) if ((this.rows[row]![column.column] ?? '') === text) found.push(row);
    return found;
  }

  /**
   * Checks every row in order (rows seen earlier decide uniqueness, as on the server), yielding to the page
   * between slices; a newer pass started meanwhile wins. `edited` rows alone are re-checked when no rule
   * looks across rows.
   */
  async check(edited?: readonly number[], onProgress?: (fraction: number) => void): Promise<boolean> {
    const pass = ++this.pass;
    const rules = this.rules;
    if (rules === undefined) return true;
    if (edited !== undefined && !rules.crossRow) {
      const check = rowChecker(rules.rules);
      for (const row of edited) this.keep(row, check(this.record(row)).errors);
      this.refreshView();
      return true;
    }
    const check = rowChecker(rules.rules, this.skipInvalid);
    const errors = new Map<number, RuleError[]>();
    let started = performance.now();
    for (let row = 0; row < this.rows.length; row++) {
      const answer = check(this.record(row));
      if (answer.errors !== undefined) errors.set(row, answer.errors);
      if ((row & 255) === 255 && performance.now() - started > SLICE_MS) {
        onProgress?.(row / this.rows.length);
        await new Promise((resolve) => setTimeout(resolve, 0));
        if (pass !== this.pass) return false;
        started = performance.now();
      }
    }
    this.errors = errors;
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

  /** The rows to send: all, or the valid ones when invalid rows are skipped. */
  rowsToSend(): string[][] {
    return this.skipInvalid ? this.rows.filter((_, row) => !this.errors.has(row)) : this.rows;
  }
}
