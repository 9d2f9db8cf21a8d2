// The page's validation: the server's rules module (src/rules), bundled into importer.js, run on the rows the
// importer would send. The page never sends a transformed value: it sends the cell's text, and the server
// applies the same transformation; the page only shows what the server will store.
import { compileRules, DeclaredSchema, RowValidator, type Cell, type CompiledRules, type RuleError } from '../rules';

/** An enum field's option as offered when a cell does not match. */
export interface Choice {
  value: string;
  label: string;
}

/** A declared template's rules in the page: the compiled rules and each enum field's options. */
export interface PageRules {
  readonly rules: CompiledRules;
  readonly choices: ReadonlyMap<string, readonly Choice[]>;
  /** Whether a row's validity depends on other rows (`unique`, `uniqueTogether`): edits then re-check every row. */
  readonly crossRow: boolean;
}

/** The rules of a template schema, or undefined for a free-form schema (nothing is checked, as on the server). */
export function pageRules(schema: unknown): PageRules | undefined {
  const rules = compileRules(schema);
  if (rules === undefined) return undefined;
  const choices = new Map<string, Choice[]>();
  for (const field of DeclaredSchema.parse(schema).fields) {
    if (field.type !== 'enum') continue;
    const options = field.options ?? (field.enum ?? []).map((value) => ({ value, label: undefined }));
    choices.set(field.key, options.map((option) => ({ value: option.value, label: option.label ?? option.value })));
  }
  return { rules, choices, crossRow: rules.uniqueTogether.length > 0 || rules.cells.some((cell) => cell.unique) };
}

/** One row's answer: the values the server would store and its errors (undefined: valid). */
export interface RowAnswer {
  row: Record<string, unknown>;
  errors: RuleError[] | undefined;
}

/**
 * Checks rows in order as the server does for one import. `skipInvalid` checks them as the server's `discard`
 * policy does: an invalid row's values do not count for uniqueness, since it will not be sent.
 */
export function rowChecker(rules: CompiledRules, skipInvalid = false): (record: Record<string, string>) => RowAnswer {
  const validator = new RowValidator(skipInvalid ? { ...rules, onInvalid: 'discard' } : rules);
  return (record) => {
    const { row, errors } = validator.check({ ...record });
    return { row, errors };
  };
}

/** A checker that ignores uniqueness: what one row's cells become, whatever the other rows hold. */
export function cellChecker(rules: CompiledRules): (record: Record<string, string>) => RowAnswer {
  return rowChecker({ ...rules, uniqueTogether: [], cells: rules.cells.map((cell) => ({ ...cell, unique: false })) });
}

/** The stored form of a cell as shown beside its text when the server will store something else. */
export function storedText(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  return value === null ? '' : String(value as Cell);
}

/** Validates every row of a list the way the server would (the property tests compare the two). */
export function validateRecords(schema: unknown, records: Record<string, string>[]): RowAnswer[] | undefined {
  const compiled = pageRules(schema);
  if (compiled === undefined) return undefined;
  const check = rowChecker(compiled.rules);
  return records.map(check);
}
