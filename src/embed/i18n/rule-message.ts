import type { ExpectedType, RuleCode, RuleError } from '../../rules';
import type { MessageKey, Translator } from './translate';

// Typed by the rules' unions: a new code or expected type without its message fails the typecheck.
const BY_CODE: Record<Exclude<RuleCode, 'type'>, MessageKey> = {
  required: 'ruleRequired',
  ambiguous_number: 'ruleAmbiguousNumber',
  ambiguous_date: 'ruleAmbiguousDate',
  decimals: 'ruleDecimals',
  min: 'ruleMin',
  max: 'ruleMax',
  min_length: 'ruleMinLength',
  max_length: 'ruleMaxLength',
  pattern: 'rulePattern',
  enum: 'ruleEnum',
  unique: 'ruleUnique',
  unique_together: 'ruleUniqueTogether',
  duplicate_key: 'ruleDuplicateKey',
};
const BY_EXPECTED: Record<ExpectedType, MessageKey> = {
  boolean: 'ruleBoolean',
  date: 'ruleDate',
  email: 'ruleEmail',
  phone: 'rulePhone',
  phone_international: 'rulePhoneInternational',
  url: 'ruleUrl',
  number: 'ruleNumber',
  integer: 'ruleInteger',
  number_in_notation: 'ruleNumberNotation',
  integer_in_notation: 'ruleIntegerNotation',
};

/**
 * A rule's error in the end-user's language: the message of its code (a `type` error's, of what it expected)
 * with its params; in English, the server's message (numbers formatted by Intl, a duplicate key's rows
 * numbered from 1 as in the grid). A template's own
 * `errorMessage` is shown as written; an error the tables do not know keeps the server's text.
 */
export function ruleMessage(t: Translator, error: RuleError): string {
  const { code, params } = error;
  if (code === 'pattern' && typeof params.errorMessage === 'string') return params.errorMessage;
  const key = code === 'type' ? BY_EXPECTED[params.expected as ExpectedType] : BY_CODE[code];
  if (key === undefined) return error.message;
  // The grid numbers rows from 1, the server's indexes from 0.
  if (code === 'duplicate_key') return t.t(key, { ...params, first: Number(params.first) + 1, row: Number(params.row) + 1 });
  return t.t(key, params);
}
