import { setOwn } from '../lib/own-member';
import { compileCell, type Cell, type CellRule } from './cells';
import { DeclaredSchema, isDeclared, primaryKeyOf } from './dialect';
import type { RuleError } from './errors';
import { HashIndex, HashSet, hashText } from './unique';
import { recordKeyOfCells } from './records';

export type InvalidPolicy = 'reject' | 'keep' | 'discard';

/** A declared template's rules, compiled once per import. */
export interface CompiledRules {
  readonly onInvalid: InvalidPolicy;
  readonly extraColumns: 'drop' | 'keep';
  readonly cells: readonly CellRule[];
  readonly uniqueTogether: readonly (readonly string[])[];
  /** The template's primaryKey (empty: not keyed); its fields are required. */
  readonly primaryKey: readonly string[];
  /** No rule can refuse or change any row (every field a bare `string`, extra columns kept): nothing to run. */
  readonly trivial: boolean;
}

/**
 * The rules of a template schema, or undefined for a free-form one (no `fields` array), which is never
 * checked. A declared schema stored before the dialect was checked on write and that does not follow it is
 * treated as free-form too, so imports into old templates keep working.
 */
export function compileRules(schema: unknown): CompiledRules | undefined {
  if (!isDeclared(schema)) return undefined;
  const parsed = DeclaredSchema.safeParse(schema);
  if (!parsed.success) return undefined;
  const primaryKey = primaryKeyOf(parsed.data);
  // Key fields are required by implication: a row without its key could not be matched with the dataset.
  const cells = parsed.data.fields.map((field) => compileCell(primaryKey.includes(field.key) ? { ...field, required: true } : field));
  const uniqueTogether = parsed.data.uniqueTogether ?? [];
  const trivial =
    parsed.data.extraColumns === 'keep' &&
    uniqueTogether.length === 0 &&
    primaryKey.length === 0 &&
    cells.every((cell) => cell.passThrough && !cell.required && !cell.unique && cell.default === undefined);
  return { onInvalid: parsed.data.onInvalid, extraColumns: parsed.data.extraColumns, cells, uniqueTogether, primaryKey, trivial };
}

/**
 * Checks and transforms the rows of one import in order: cells by their field's rules, then uniqueness of
 * `unique` fields and `uniqueTogether` groups among the rows seen so far (empty cells never collide). Under
 * `discard` an invalid row's values do not count for uniqueness, since it is not stored. Two rows with the
 * same primaryKey value are a `duplicate_key` error of the later one, naming both rows (0-based, in input order).
 * A row is given as an object (check) or, by a caller that reads rows without building one, as its declared
 * cells (checkDeclared): both run the same rules.
 */
export class RowValidator {
  /** The row's declared cells in the order of `rules.cells` (undefined: absent); their stored values once checked. */
  readonly values: (Cell | undefined)[];
  /** Once checked, 1 where a declared cell's stored value is not the one sent (a default or a transform), else 0. */
  readonly changed: Uint8Array;
  private readonly uniques: (HashSet | undefined)[];
  private readonly groups: { keys: readonly string[]; cells: readonly number[]; seen: HashSet }[];
  private readonly keyCells: readonly number[];
  private readonly countInvalid: boolean;
  private readonly keys = new HashIndex();
  private rowIndex = -1;

  constructor(private readonly rules: CompiledRules) {
    const cellOf = (key: string) => rules.cells.findIndex((cell) => cell.key === key);
    this.values = new Array<Cell | undefined>(rules.cells.length).fill(undefined);
    this.changed = new Uint8Array(rules.cells.length);
    this.uniques = rules.cells.map((cell) => (cell.unique ? new HashSet() : undefined));
    this.groups = rules.uniqueTogether.map((keys) => ({ keys, cells: keys.map(cellOf), seen: new HashSet() }));
    this.keyCells = rules.primaryKey.map(cellOf);
    this.countInvalid = rules.onInvalid !== 'discard';
  }

  /**
   * The row's errors (undefined when valid); the row is transformed in place, or replaced by a new object
   * when extra columns are dropped: `row` in the answer is the one to store, `changed` false when it is the
   * input untouched (its JSON text can then be stored as it came).
   */
  check(input: Record<string, unknown>): { row: Record<string, unknown>; errors: RuleError[] | undefined; changed: boolean } {
    const { cells } = this.rules;
    for (let i = 0; i < cells.length; i++) {
      const key = cells[i]!.key;
      this.values[i] = Object.hasOwn(input, key) ? (input[key] as Cell | undefined) : undefined;
    }
    const errors = this.checkDeclared();
    const row = this.rules.extraColumns === 'drop' ? declaredOnly(input, cells) : input;
    let changed = row !== input;
    for (let i = 0; i < cells.length; i++) {
      if (this.changed[i] === 0) continue;
      setCell(row, cells[i]!.key, this.values[i]);
      changed = true;
    }
    return { row, errors, changed };
  }

  /**
   * Checks the row whose declared cells the caller put in `values`, in place: `values` then holds their stored
   * values and `changed` tells which differ from the cells sent. The row's errors (undefined when valid).
   */
  checkDeclared(): RuleError[] | undefined {
    this.rowIndex++;
    const { values, changed } = this;
    const cells = this.rules.cells;
    let errors: RuleError[] | undefined;
    for (let i = 0; i < cells.length; i++) {
      const cell = cells[i]!;
      const value = values[i];
      changed[i] = 0;
      if (value === undefined || value === null || (typeof value === 'string' && isBlank(value))) {
        if (cell.default !== undefined) {
          values[i] = cell.default;
          changed[i] = 1;
        } else if (cell.required) (errors ??= []).push({ key: cell.key, code: 'required', message: `${cell.key} is required`, params: { field: cell.key } });
        continue;
      }
      if (cell.passThrough) continue;
      const stored = cell.check(value);
      if (stored !== null && typeof stored === 'object') (errors ??= []).push(stored);
      else if (stored !== value) {
        values[i] = stored;
        changed[i] = 1;
      }
    }
    if (errors === undefined || this.countInvalid) errors = this.checkUnique(errors);
    return errors;
  }

  private checkUnique(errors: RuleError[] | undefined): RuleError[] | undefined {
    const { cells } = this.rules;
    const { values } = this;
    for (let i = 0; i < cells.length; i++) {
      const seen = this.uniques[i];
      if (seen === undefined) continue;
      const key = cells[i]!.key;
      const value = values[i];
      if (isEmpty(value) || hasError(errors, key)) continue;
      if (!seen.add(hashText(String(value)))) (errors ??= []).push({ key, code: 'unique', message: `${key} has the same value as an earlier row`, params: { field: key } });
    }
    for (const group of this.groups) {
      let joined = '';
      let complete = true;
      for (let k = 0; k < group.keys.length; k++) {
        const value = values[group.cells[k]!];
        if (isEmpty(value) || hasError(errors, group.keys[k]!)) complete = false;
        else joined += `${String(value)}\u0000`;
      }
      if (complete && !group.seen.add(hashText(joined))) {
        const fields = group.keys.join(', ');
        (errors ??= []).push({ key: group.keys.join('+'), code: 'unique_together', message: `${fields} have the same values as an earlier row`, params: { fields } });
      }
    }
    return this.checkKey(errors);
  }

  private checkKey(errors: RuleError[] | undefined): RuleError[] | undefined {
    const primaryKey = this.rules.primaryKey;
    if (primaryKey.length === 0 || primaryKey.some((key) => hasError(errors, key))) return errors;
    const first = this.keys.firstOrAdd(hashText(recordKeyOfCells(this.values, this.keyCells)), this.rowIndex);
    if (first === undefined) return errors;
    const fields = primaryKey.join(', ');
    const message = `rows ${first} and ${this.rowIndex} have the same ${fields}`;
    return [...(errors ?? []), { key: primaryKey.join('+'), code: 'duplicate_key', message, params: { first, row: this.rowIndex, fields } }];
  }
}

function declaredOnly(input: Record<string, unknown>, cells: readonly CellRule[]): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const cell of cells) if (Object.hasOwn(input, cell.key)) setCell(row, cell.key, input[cell.key]);
  return row;
}

function setCell(row: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') setOwn(row, key, value);
  else row[key] = value;
}

function isBlank(text: string): boolean {
  if (text.length === 0) return true;
  const first = text.charCodeAt(0);
  // Most cells start with a printable character: no trim (which allocates) for them.
  return first <= 32 || first === 160 || first === 0xfeff || first === 0x3000 ? text.trim() === '' : false;
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && isBlank(value));
}

function hasError(errors: RuleError[] | undefined, key: string): boolean {
  return errors !== undefined && errors.some((error) => error.key === key);
}
