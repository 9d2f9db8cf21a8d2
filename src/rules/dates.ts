// Dates and date-times in the formats a field declares, stored as ISO 8601 (`2025-03-04`,
// `2025-03-04T10:30:00.000Z`). A text two declared formats read as different days is refused, never guessed.
// ISO 8601 is read whatever the field declares: no other format reads it, so it is never a different day, and
// it is what the importer sends once the end-user's column format is known (`03/04/2025` as MM/DD/YYYY).

export const DATE_FORMATS = ['YYYY-MM-DD', 'DD/MM/YYYY', 'MM/DD/YYYY', 'DD.MM.YYYY', 'DD-MM-YYYY', 'MM-DD-YYYY', 'YYYY/MM/DD', 'excel'] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];

/** The formats of a date field that declares none: ISO 8601 only (the one form nobody reads two ways). */
export const DEFAULT_DATE_FORMATS: readonly DateFormat[] = ['YYYY-MM-DD'];

interface TextFormat {
  pattern: RegExp;
  /** The capture group of year, month and day. */
  year: number;
  month: number;
  day: number;
}

const TIME = String.raw`(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?`;

function textFormat(format: Exclude<DateFormat, 'excel'>): TextFormat {
  const separator = format[2] === '/' || format[2] === '.' || format[2] === '-' ? format[2] : format[4]!;
  const parts = format.split(separator);
  const group = (part: string) => (part === 'YYYY' ? String.raw`(\d{4})` : String.raw`(\d{1,2})`);
  const body = parts.map(group).join(separator === '.' ? String.raw`\.` : separator);
  return { pattern: new RegExp(`^${body}${TIME}$`), year: parts.indexOf('YYYY') + 1, month: parts.indexOf('MM') + 1, day: parts.indexOf('DD') + 1 };
}

export interface DateReader {
  /** The ISO form of a cell, or an error code: `date` (no declared format reads it), `ambiguous_date`. */
  read(value: string | number, withTime: boolean): string | 'date' | 'ambiguous_date';
}

export function compileDateReader(formats: readonly DateFormat[]): DateReader {
  const declared = formats.filter((f): f is Exclude<DateFormat, 'excel'> => f !== 'excel');
  const texts = (declared.includes('YYYY-MM-DD') ? declared : ['YYYY-MM-DD' as const, ...declared]).map(textFormat);
  const excel = formats.includes('excel');
  return {
    read(value, withTime) {
      if (typeof value === 'number' || /^\d+(?:\.\d+)?$/.test(value)) {
        // A bare number is a date only where Excel serials are declared (a serial read as a number, or a
        // number read as a serial, is the silent change this refuses). YYYYMMDD-like texts stay refused too.
        return excel ? fromSerial(Number(value), withTime) : 'date';
      }
      let found: string | undefined;
      for (const format of texts) {
        const match = format.pattern.exec(value);
        if (match === null) continue;
        if (!withTime && match[4] !== undefined) continue;
        const iso = isoOf(match, format, withTime);
        if (iso === undefined) continue;
        if (found !== undefined && found !== iso) return 'ambiguous_date';
        found = iso;
      }
      return found ?? 'date';
    },
  };
}

function isoOf(match: RegExpExecArray, format: TextFormat, withTime: boolean): string | undefined {
  const year = Number(match[format.year]);
  const month = Number(match[format.month]);
  const day = Number(match[format.day]);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined;
  const date = `${String(year).padStart(4, '0')}-${pad(month)}-${pad(day)}`;
  if (!withTime) return date;
  const hours = Number(match[4] ?? 0);
  const minutes = Number(match[5] ?? 0);
  const seconds = Number(match[6] ?? 0);
  if (hours > 23 || minutes > 59 || seconds > 59) return undefined;
  const millis = (match[7] ?? '').padEnd(3, '0').slice(0, 3);
  const zone = match[8];
  // A time without an offset is taken as UTC (documented): the stored form always ends in Z.
  const local = `${date}T${pad(hours)}:${pad(minutes)}:${pad(seconds)}.${millis || '000'}`;
  if (zone === undefined || zone === 'Z') return `${local}Z`;
  const offset = zone.length === 5 ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone;
  return new Date(`${local}${offset}`).toISOString();
}

// Excel's day 1 is 1900-01-01, and it counts a 29 February 1900 that never was (serial 60): serials from 61
// on are days since 1899-12-30, those before it days since 1899-12-31.
const DAY_MS = 86_400_000;
const EPOCH_1899_12_30 = Date.UTC(1899, 11, 30);
const MAX_SERIAL = 2_958_465; // 9999-12-31

function fromSerial(serial: number, withTime: boolean): string | 'date' {
  if (!(serial >= 1 && serial <= MAX_SERIAL) || serial === 60 || (serial > 60 && serial < 61)) return 'date';
  const whole = Math.floor(serial);
  if (!withTime && whole !== serial) return 'date';
  const days = serial < 60 ? serial + 1 : serial;
  const iso = new Date(EPOCH_1899_12_30 + Math.round(days * DAY_MS)).toISOString();
  return withTime ? iso : iso.slice(0, 10);
}

function daysIn(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

function pad(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}
