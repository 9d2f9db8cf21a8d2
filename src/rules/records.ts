// A keyed template's records (docs/templates.md, "Keyed templates"): how a row's key is written and how a
// row compares with the record its key holds in the dataset. Pure: the stores and the dry run share it.

/** The canonical text of a row's primaryKey value: the JSON array of its key cells (null for an absent one). */
export function recordKey(row: Record<string, unknown>, primaryKey: readonly string[]): string {
  let text = '[';
  for (let i = 0; i < primaryKey.length; i++) {
    const key = primaryKey[i]!;
    text += keyCellText(i, Object.hasOwn(row, key) ? row[key] : null);
  }
  return `${text}]`;
}

/** recordKey of a row given as a list of its cells: `values[cells[i]]` is its i-th key cell (undefined: absent). */
export function recordKeyOfCells(values: readonly unknown[], cells: readonly number[]): string {
  let text = '[';
  for (let i = 0; i < cells.length; i++) text += keyCellText(i, values[cells[i]!]);
  return `${text}]`;
}

function keyCellText(position: number, value: unknown): string {
  return (position === 0 ? '' : ',') + JSON.stringify(value ?? null);
}

export type RowChange = 'inserted' | 'updated' | 'unchanged';

/** How a row (its text and its parse, `fields`) compares with its key's record (undefined: none yet). Equal texts skip the record's parse. */
export function classifyRow(row: string, previous: string | undefined, fields: Record<string, unknown>): RowChange {
  if (previous === undefined) return 'inserted';
  if (row === previous) return 'unchanged';
  return changedFields(JSON.parse(previous) as Record<string, unknown>, fields).length === 0 ? 'unchanged' : 'updated';
}

/** The fields whose value differs between two records (a field present in one only counts), in the row's order first. */
export function changedFields(previous: Record<string, unknown>, row: Record<string, unknown>): string[] {
  const changed: string[] = [];
  for (const key of Object.keys(row)) if (!Object.hasOwn(previous, key) || previous[key] !== row[key]) changed.push(key);
  for (const key of Object.keys(previous)) if (!Object.hasOwn(row, key)) changed.push(key);
  return changed;
}

/** The previous values of the fields that changed (null for a field the record did not have). */
export function previousValues(previous: Record<string, unknown>, row: Record<string, unknown>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const key of changedFields(previous, row)) Object.defineProperty(values, key, { value: Object.hasOwn(previous, key) ? previous[key] : null, enumerable: true, writable: true, configurable: true });
  return values;
}
