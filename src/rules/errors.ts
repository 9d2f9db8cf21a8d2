/**
 * What is wrong with one cell (or a row's combination of cells) under a declared template: `message` is the
 * server's English text; `params` are what it is made of (`field`, `min`, `formats`, ...), so the importer
 * renders the same error in the end-user's language (src/embed/i18n/rule-message.ts). The server's answers
 * carry key, code and message only.
 */
export interface RuleError {
  key: string;
  code: RuleCode;
  message: string;
  params: RuleParams;
}

export type RuleParams = Readonly<Record<string, string | number>>;

/**
 * What a `type` error expected (its `params.expected`): the importer has one message for each.
 * `*_in_notation` name the template's numberFormat in `params.notation`.
 */
export type ExpectedType = 'boolean' | 'date' | 'email' | 'phone' | 'phone_international' | 'url' | 'number' | 'integer' | 'number_in_notation' | 'integer_in_notation';

export type RuleCode =
  | 'required'
  | 'type'
  | 'ambiguous_number'
  | 'ambiguous_date'
  | 'decimals'
  | 'min'
  | 'max'
  | 'min_length'
  | 'max_length'
  | 'pattern'
  | 'enum'
  | 'unique'
  | 'unique_together'
  | 'duplicate_key';
