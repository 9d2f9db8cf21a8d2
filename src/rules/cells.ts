import { compileDateReader, DEFAULT_DATE_FORMATS } from './dates';
import type { DeclaredField } from './dialect';
import { compileEnum } from './enums';
import type { ExpectedType, RuleCode, RuleError, RuleParams } from './errors';
import { fractionDigits, readNumberText } from './numbers';
import { compilePattern } from './patterns';
import { compilePhone } from './phones';
import { compileTransforms } from './text';

export type Cell = string | number | boolean | null;

/** A field's rules compiled once per import: `check` reads a present, non-empty cell into its stored value. */
export interface CellRule {
  readonly key: string;
  readonly required: boolean;
  readonly unique: boolean;
  readonly default: Cell | undefined;
  /** Whether a valid cell can be stored as sent (no check can change it, and none can refuse it). */
  readonly passThrough: boolean;
  /** The stored value of a cell, or its error. */
  check(value: string | number | boolean): Cell | RuleError;
}

const EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;
const BOOLEANS = new Map<string, boolean>([
  ['true', true], ['false', false], ['yes', true], ['no', false], ['y', true], ['n', false], ['1', true], ['0', false],
]);
const LONG_INTEGER = /^-?\d{16,}$/;

export function compileCell(field: DeclaredField): CellRule {
  const name = field.label ?? field.key;
  const fail: Fail = (code, message, params = {}) => ({ key: field.key, code, message: `${name} ${message}`, params: { field: name, ...params } });
  const transform = compileTransforms(field.transforms);
  const read = typedReader(field, fail);
  const pattern = field.pattern === undefined ? undefined : compilePattern(field.pattern).test;
  const { minLength, maxLength, min, max } = field;
  const lengthChecked = minLength !== undefined || maxLength !== undefined;
  const numeric = field.type === 'number' || field.type === 'integer';
  // The template's own errorMessage is shown as written, in every language.
  const patternError: RuleError = field.errorMessage === undefined ? fail('pattern', 'does not match the pattern') : { key: field.key, code: 'pattern', message: field.errorMessage, params: { field: name, errorMessage: field.errorMessage } };
  const passThrough = field.type === 'string' && transform === undefined && pattern === undefined && !lengthChecked;
  return {
    key: field.key,
    required: field.required === true,
    unique: field.unique === true,
    default: field.default,
    passThrough,
    check(value) {
      if (transform !== undefined && typeof value === 'string') value = transform(value);
      const stored = read === undefined ? value : read(value);
      if (typeof stored === 'object') return stored;
      if (pattern !== undefined || lengthChecked) {
        const text = String(stored);
        if (minLength !== undefined && text.length < minLength) return fail('min_length', `must be at least ${minLength} characters`, { count: minLength });
        if (maxLength !== undefined && text.length > maxLength) return fail('max_length', `must be at most ${maxLength} characters`, { count: maxLength });
        if (pattern !== undefined && !pattern(text)) return patternError;
      }
      if (numeric && (min !== undefined || max !== undefined)) {
        const number = Number(stored);
        if (min !== undefined && number < min) return fail('min', `must be at least ${min}`, { min });
        if (max !== undefined && number > max) return fail('max', `must be at most ${max}`, { max });
      }
      return stored;
    },
  };
}

type Fail = (code: RuleCode, message: string, params?: RuleParams) => RuleError;
const typeError = (fail: Fail, expected: ExpectedType, message: string, params: RuleParams = {}) => fail('type', message, { expected, ...params });

/** The type's reading of a cell into its stored value (undefined for `string`: stored as sent). */
function typedReader(field: DeclaredField, fail: Fail): ((value: string | number | boolean) => Cell | RuleError) | undefined {
  switch (field.type) {
    case 'string':
      return undefined;
    case 'number':
    case 'integer':
      return numberReader(field, fail);
    case 'boolean':
      return (value) => {
        if (typeof value === 'boolean') return value;
        const read = BOOLEANS.get(String(value).trim().toLowerCase());
        return read ?? typeError(fail, 'boolean', 'must be true or false (yes/no, 1/0)');
      };
    case 'date':
    case 'datetime': {
      const reader = compileDateReader(field.formats ?? DEFAULT_DATE_FORMATS);
      const withTime = field.type === 'datetime';
      const formats = (field.formats ?? DEFAULT_DATE_FORMATS).join(', ');
      return (value) => {
        if (typeof value === 'boolean') return typeError(fail, 'date', `must be a date (${formats})`, { formats });
        const read = reader.read(typeof value === 'string' ? value.trim() : value, withTime);
        if (read === 'date') return typeError(fail, 'date', `must be a date (${formats})`, { formats });
        if (read === 'ambiguous_date') return fail('ambiguous_date', `reads as different dates in the formats ${formats}`, { formats });
        return read;
      };
    }
    case 'email':
      return (value) => {
        const text = String(value).trim();
        return typeof value === 'string' && EMAIL.test(text) ? text : typeError(fail, 'email', 'must be an e-mail address');
      };
    case 'phone': {
      const phoneE164 = compilePhone(field.defaultCountry);
      return (value) => {
        const e164 = typeof value === 'boolean' ? undefined : phoneE164(String(value).trim());
        if (e164 !== undefined) return e164;
        return field.defaultCountry === undefined ? typeError(fail, 'phone_international', 'must be a phone number with its country code (+...)') : typeError(fail, 'phone', 'must be a phone number');
      };
    }
    case 'url':
      return (value) => {
        const text = String(value).trim();
        return typeof value === 'string' && isWebUrl(text) ? text : typeError(fail, 'url', 'must be an http or https URL');
      };
    case 'enum': {
      const lookup = compileEnum(field.options ?? (field.enum ?? []).map((value) => ({ value })));
      const shown = (field.options ?? []).slice(0, 5).map((option) => option.value).concat(field.enum?.slice(0, 5) ?? []);
      const options = `${shown.join(', ')}${shown.length >= 5 ? ', ...' : ''}`;
      return (value) => lookup(String(value).trim()) ?? fail('enum', `must be one of ${options}`, { options });
    }
  }
}

function numberReader(field: DeclaredField, fail: Fail): (value: string | number | boolean) => Cell | RuleError {
  const integer = field.type === 'integer';
  const format = field.numberFormat ?? 'us';
  const { decimals } = field;
  const kind = integer ? 'an integer' : 'a number';
  const expected = integer ? 'integer' : 'number';
  const notANumber = () => typeError(fail, expected, `must be ${kind}`);
  const notAnInteger = () => typeError(fail, 'integer', 'must be an integer');
  return (value) => {
    if (typeof value === 'boolean') return notANumber();
    const text = typeof value === 'number' ? String(value) : readNumberText(value.trim(), format);
    if (text === 'number') return format === 'us' ? notANumber() : typeError(fail, `${expected}_in_notation`, `must be ${kind} (${format} notation)`, { notation: format });
    if (text === 'ambiguous_number') return fail('ambiguous_number', 'reads as different numbers in US and European notation');
    const number = Number(text);
    if (!Number.isFinite(number)) return notANumber();
    if (integer && !Number.isInteger(number)) return notAnInteger();
    if (integer && /\.\d*[1-9]/.test(text)) return notAnInteger();
    if (decimals !== undefined && fractionDigits(text) > decimals) return fail('decimals', `must have at most ${decimals} decimals`, { count: decimals });
    // Beyond 2^53 a double is not the number written: its digits are stored as text, exactly.
    if (!Number.isSafeInteger(number) && LONG_INTEGER.test(text)) return typeof value === 'number' ? value : text;
    return number;
  };
}

function isWebUrl(text: string): boolean {
  if (!/^https?:\/\/[^\s]+$/i.test(text)) return false;
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}
