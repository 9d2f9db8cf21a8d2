export { compileCell, type Cell, type CellRule } from './cells';
export { DeclaredSchema, FIELD_TYPES, isDeclared, primaryKeyOf, requiresReview, ReviewPolicy, TRANSFORMS, type DeclaredField } from './dialect';
export type { ExpectedType, RuleCode, RuleError, RuleParams } from './errors';
export { compileRules, RowValidator, type CompiledRules, type InvalidPolicy } from './rows';
export { changedFields, classifyRow, previousValues, recordKey, type RowChange } from './records';
