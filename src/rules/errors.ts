/** What is wrong with one cell (or a row's combination of cells) under a declared template. */
export interface RuleError {
  key: string;
  code: RuleCode;
  message: string;
}

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
