import type { CellStats } from './schemas';

type CellType = CellStats['fieldBreakdown'][number]['type'];

/**
 * Distinct column keys one import may hold (Excel's column limit). Every read of the import's statistics
 * (the detail, the CSV header) parses them whole, and rows with a new key each would grow them without end.
 */
export const MAX_COLUMNS = 16_384;

/** One column's statistics so far: a handle callers that meet the same keys row after row can keep. */
export interface Column {
  key: string;
  type: CellType;
  count: number;
}

const NUMERIC = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const BOOLEAN = /^(?:true|false)$/i;
const EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;
const DATE = /^(?:\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?|\d{1,2}[/.]\d{1,2}[/.]\d{4})$/;

/**
 * Statistics of the cells of one import, fed row by row while it is written (so they are computed once):
 * every stored cell counts in totalCells; a column's type is inferred from its non-empty cells (strings
 * that read as numbers, booleans, e-mails or dates count as those), `empty` when it has none and `mixed`
 * when they disagree.
 */
export class CellStatsCollector {
  private readonly columns = new Map<string, Column>();
  totalCells = 0;
  /** Set once the rows held more than MAX_COLUMNS distinct keys: the ones past it are counted nowhere. */
  overflowed = false;

  /**
   * With `keysOnly`, only the columns' keys are kept (for the MAX_COLUMNS refusal), none of their cells: for rows
   * whose statistics are counted again once a template's rules have transformed them (validateRows).
   */
  constructor(readonly keysOnly = false) {}

  /** Records one cell (the value is already known to be a string, finite number, boolean or null). */
  add(key: string, value: string | number | boolean | null): void {
    this.addTo(this.column(key), value);
  }

  /**
   * The column of `key`, created (in first-seen order) on its first cell; past MAX_COLUMNS keys a column
   * kept nowhere, and `overflowed` set (RowChecker refuses the import).
   */
  column(key: string): Column {
    let column = this.columns.get(key);
    if (column === undefined) {
      column = { key, type: 'empty', count: 0 };
      if (this.columns.size < MAX_COLUMNS) this.columns.set(key, column);
      else this.overflowed = true;
    }
    return column;
  }

  /** add() for a column already looked up. */
  addTo(column: Column, value: string | number | boolean | null): void {
    if (this.keysOnly) return;
    if (value === null) {
      this.totalCells++;
      return;
    }
    const cell = typeof value === 'string' ? value.trim() : value;
    if (cell === '') this.totalCells++;
    else this.addTyped(column, column.type === 'mixed' ? 'mixed' : inferType(cell));
  }

  /** Records a non-empty cell whose type the caller already knows. */
  addTyped(column: Column, type: CellType): void {
    if (this.keysOnly) return;
    this.totalCells++;
    column.count++;
    if (column.type === 'empty') column.type = type;
    else if (column.type !== type) column.type = 'mixed';
  }

  /** Adds the statistics of the rows that follow those counted here (`later`'s columns after these). */
  merge(later: CellStatsCollector): void {
    this.totalCells += later.totalCells;
    if (later.overflowed) this.overflowed = true;
    for (const { key, type, count } of later.columns.values()) {
      const column = this.column(key);
      column.count += count;
      // As addTyped would have, cell by cell: `empty` gives way to any type, two types make `mixed`.
      if (column.type === 'empty') column.type = type;
      else if (type !== 'empty' && column.type !== type) column.type = 'mixed';
    }
  }

  result(rowCount: number): CellStats {
    return { totalCells: this.totalCells, rowCount, fieldBreakdown: [...this.columns.values()].map((c) => ({ ...c })) };
  }
}

/** The type of a non-empty cell (a string already trimmed). */
function inferType(text: string | number | boolean): CellType {
  if (typeof text === 'number') return 'number';
  if (typeof text === 'boolean') return 'boolean';
  // Run for every string cell of every import: each pattern is tested only when the first character (or an
  // `@`) allows it to match, which spares most cells every regular expression.
  const first = text.charCodeAt(0);
  const digit = first >= 48 && first <= 57;
  if ((digit || first === 43 || first === 45 || first === 46) && NUMERIC.test(text)) return 'number';
  const lower = first | 32;
  if ((lower === 116 || lower === 102) && BOOLEAN.test(text)) return 'boolean';
  if (text.includes('@') && EMAIL.test(text)) return 'email';
  if (digit && DATE.test(text) && namesADay(text)) return 'date';
  return 'string';
}

/**
 * Whether a text DATE matched is one Date.parse accepts (day/month/year read as month/day/year). A bare ISO
 * day, most date cells, is read by its digits instead: V8 accepts it when its month is 1-12 and its day 1-31
 * (test/imports/cell-stats.test.ts holds this against Date.parse for every month and day).
 */
function namesADay(text: string): boolean {
  if (text.charCodeAt(4) !== 45) return !Number.isNaN(Date.parse(text.replace(/^(\d{1,2})[/.](\d{1,2})[/.](\d{4})$/, '$3-$1-$2')));
  if (text.length !== 10) return !Number.isNaN(Date.parse(text));
  const month = (text.charCodeAt(5) - 48) * 10 + text.charCodeAt(6) - 48;
  const day = (text.charCodeAt(8) - 48) * 10 + text.charCodeAt(9) - 48;
  return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}
