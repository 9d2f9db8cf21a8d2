/**
 * Rows of text cells read by position. A million rows read from a file are not kept as a million arrays of
 * strings: the page's minor garbage collections copied every one of them (seconds of long tasks while the
 * file arrived). The reader worker packs each slice of rows into one string and one array of offsets
 * (`PackedSlice`), and a cell becomes a string only when it is read (drawn, checked, counted or sent).
 */

/** Cells by row and column: a cell past a row's end reads ''. */
export interface Cells {
  readonly length: number;
  readonly width: number;
  cell(row: number, column: number): string;
}

/** Rows of `width` cells as the worker posts them: cell k (row by row) is text.slice(offsets[k], offsets[k + 1]). */
export interface PackedSlice {
  rows: number;
  text: string;
  offsets: Uint32Array;
}

/** Packs rows of `width` cells (in the reader worker). */
export function packSlice(rows: readonly string[][], width: number): PackedSlice {
  const offsets = new Uint32Array(rows.length * width + 1);
  const texts: string[] = [];
  let end = 0;
  for (const row of rows) {
    for (let column = 0; column < width; column++) {
      const text = row[column] ?? '';
      texts.push(text);
      end += text.length;
      offsets[texts.length] = end;
    }
  }
  return { rows: rows.length, text: texts.join(''), offsets };
}

/** Slices of packed rows; every slice but the last holds as many rows as the first (the worker's step). */
class PackedCells implements Cells {
  readonly length: number;
  private readonly perSlice: number;

  constructor(
    private readonly slices: readonly PackedSlice[],
    readonly width: number,
  ) {
    this.length = slices.reduce((sum, slice) => sum + slice.rows, 0);
    this.perSlice = Math.max(1, slices[0]?.rows ?? 1);
  }

  cell(row: number, column: number): string {
    if (column >= this.width || row >= this.length) return '';
    const slice = this.slices[Math.floor(row / this.perSlice)]!;
    const at = (row % this.perSlice) * this.width + column;
    return slice.text.slice(slice.offsets[at], slice.offsets[at + 1]);
  }
}

/** Rows held as arrays (small tables, and the tests). */
class ArrayCells implements Cells {
  readonly width: number;

  constructor(private readonly rows: readonly string[][]) {
    this.width = rows.reduce((widest, row) => Math.max(widest, row.length), 0);
  }

  get length(): number {
    return this.rows.length;
  }

  cell(row: number, column: number): string {
    return this.rows[row]?.[column] ?? '';
  }
}

/**
 * A table of cells with its edits: an edited cell lives in a map beside the cells as read, and a text
 * replaced in a whole column is replaced as each cell is read (a million replaced strings kept were as much
 * work for the garbage collector as the rows once were). `from` gives the rows below a header row as a view
 * sharing the cells and the edits (an edit through it shows in the table).
 */
export class Rows implements Cells {
  private constructor(
    private readonly cells: Cells,
    /** Edited cells of each column by row in `cells` (a column never edited reads no map). */
    private readonly edits: (Map<number, string> | undefined)[],
    /** Each column's replacements, in order, each from a row of `cells` on. */
    private readonly replaced: ({ from: number; replace: (text: string) => string }[] | undefined)[],
    private readonly first: number,
    readonly length: number,
  ) {}

  static over(cells: Cells): Rows {
    return new Rows(cells, [], [], 0, cells.length);
  }

  static packed(slices: readonly PackedSlice[], width: number): Rows {
    return Rows.over(new PackedCells(slices, width));
  }

  static of(rows: readonly string[][]): Rows {
    return Rows.over(new ArrayCells(rows));
  }

  get width(): number {
    return this.cells.width;
  }

  cell(row: number, column: number): string {
    const at = this.first + row;
    const edited = this.edits[column]?.get(at);
    if (edited !== undefined) return edited;
    let text = this.cells.cell(at, column);
    for (const { from, replace } of this.replaced[column] ?? []) if (at >= from) text = replace(text);
    return text;
  }

  set(row: number, column: number, text: string): void {
    if (column < this.cells.width) (this.edits[column] ??= new Map()).set(this.first + row, text);
  }

  /** Replaces `find` (not empty) by `replacement`, taken as typed, in every cell of `column` of these rows. */
  replaceAll(column: number, find: string, replacement: string): void {
    if (column >= this.cells.width) return;
    // A function: the replacement's `$&` or `$1` stay as typed.
    const replace = (text: string) => text.replaceAll(find, () => replacement);
    const edits = this.edits[column];
    if (edits !== undefined) for (const [at, text] of edits) if (at >= this.first) edits.set(at, replace(text));
    (this.replaced[column] ??= []).push({ from: this.first, replace });
  }

  /** A row's cells as an array. */
  row(row: number): string[] {
    return Array.from({ length: this.cells.width }, (_, column) => this.cell(row, column));
  }

  /** The first `count` rows as arrays (what the mapping step shows of the file). */
  head(count: number): string[][] {
    return Array.from({ length: Math.max(0, Math.min(count, this.length)) }, (_, row) => this.row(row));
  }

  /** The rows from `first` on, sharing these cells and edits. */
  from(first: number): Rows {
    return new Rows(this.cells, this.edits, this.replaced, this.first + first, Math.max(0, this.length - first));
  }
}
