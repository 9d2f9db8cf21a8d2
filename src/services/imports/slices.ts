/**
 * Rows handled per slice: checked, then stored in one transaction; between slices the event loop serves
 * other requests. 250 rows take a few milliseconds, which bounds how long any request waits behind an import.
 */
export const SLICE_ROWS = 250;

/** An array of rows as slices of SLICE_ROWS. */
export function* sliceRows<T>(rows: readonly T[]): Generator<readonly T[]> {
  for (let first = 0; first < rows.length; first += SLICE_ROWS) yield rows.slice(first, first + SLICE_ROWS);
}
