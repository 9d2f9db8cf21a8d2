import { compileDateReader, DATE_FORMATS, type DateFormat } from '../rules/dates';

export type TextDateFormat = Exclude<DateFormat, 'excel'>;
const TEXT_FORMATS = DATE_FORMATS.filter((format): format is TextDateFormat => format !== 'excel');

/** What a date column's values say about their format. */
export interface DateDetection {
  /** The format every reading agrees on, when the values decide it. */
  format: TextDateFormat | undefined;
  /** The formats that read the most values: more than one when nothing decides (the end-user picks). */
  possible: TextDateFormat[];
  /** A value the possible formats read as different days (shown with the choice). */
  example: string | undefined;
}

/**
 * Detects the format of a date column among `declared` (the field's `formats`; every text format when it
 * declares none): the formats that read the most values are kept, and one of them is taken when they read
 * every value as the same day (`03/04/2025` is ambiguous between DD/MM and MM/DD until `13/04/2025` decides).
 */
export function detectDateFormat(values: readonly string[], declared: readonly DateFormat[] | undefined, withTime: boolean): DateDetection {
  const candidates = declared?.some((format) => format !== 'excel') ? TEXT_FORMATS.filter((format) => declared.includes(format)) : TEXT_FORMATS;
  const readers = candidates.map((format) => ({ format, reader: compileDateReader([format]), read: 0 }));
  const texts = [...new Set(values.map((value) => value.trim()).filter((value) => value !== ''))];
  const readings = texts.map((text) =>
    readers.map((candidate) => {
      const iso = candidate.reader.read(text, withTime);
      if (iso !== 'date' && iso !== 'ambiguous_date') candidate.read += 1;
      return iso;
    }),
  );
  const best = Math.max(0, ...readers.map((candidate) => candidate.read));
  const kept = readers.flatMap((candidate, index) => (best > 0 && candidate.read === best ? [index] : []));
  const possible = kept.map((index) => readers[index]!.format);
  const differs = readings.findIndex((reading) => new Set(kept.map((index) => reading[index])).size > 1);
  if (differs < 0) return { format: possible[0], possible, example: undefined };
  return { format: undefined, possible, example: texts[differs] };
}

/** A cell's text as an ISO date in `format`; a value the format does not read is left as written. */
export function isoDateWriter(format: TextDateFormat, withTime: boolean): (text: string) => string {
  const reader = compileDateReader([format]);
  return (text) => {
    if (text.trim() === '') return text;
    const iso = reader.read(text.trim(), withTime);
    return iso === 'date' || iso === 'ambiguous_date' ? text : iso;
  };
}
