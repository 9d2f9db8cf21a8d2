// Replaces read-excel-file's own xlsx/parseExcelTimestamp.js in the bundle (scripts/embed-build.mjs): that one
// floors the product of a floating-point serial, so 09:30 (0.3958333...) came out as 09:29:59.999.

const DAY_MS = 86_400_000;
/** Days from Excel's day 0 (1899-12-31, counted as 1900-01-00) to 1970-01-01, with Excel's 29 February 1900. */
const UNIX_EPOCH_SERIAL = 25_569;
/** A 1904-based serial (old Mac workbooks) is this many days behind a 1900-based one. */
const EPOCH_1904_DAYS = 1_462;

/**
 * The time an Excel serial means, in milliseconds since 1970, rounded to the millisecond (a serial is a
 * day count in a double: it never holds more than a millisecond's precision of a wall-clock time). Serials
 * 1 to 59 (before the 29 February 1900 Excel counts) are a day later than the count says; below 1 is a time
 * of day alone, kept on 1899-12-30 as Excel shows it.
 */
export default function parseExcelTimestamp(serial: number, epoch1904: boolean): number {
  let days = epoch1904 ? serial + EPOCH_1904_DAYS : serial;
  if (days >= 1 && days < 60) days += 1;
  return Math.round((days - UNIX_EPOCH_SERIAL) * DAY_MS);
}
