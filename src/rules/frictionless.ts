import { DATE_FORMATS, type DateFormat } from './dates';
import { compilePattern } from './patterns';

// Frictionless Table Schema (https://specs.frictionlessdata.io/table-schema/) <-> the declared dialect
// (docs/templates.md). Pure: no I/O. What the Table Schema cannot express travels in one namespaced
// member, `importd`, on the schema and on each field (the spec allows extra members), so a declared template
// survives declared -> Table Schema -> declared unchanged. What importd cannot honour is refused, never dropped.

type Json = Record<string, unknown>;
export type Path = (string | number)[];
export interface TableSchemaIssue {
  path: Path;
  message: string;
}
type Fail = (path: Path, message: string) => void;

const TYPES = ['string', 'number', 'integer', 'boolean', 'date', 'datetime'];
const UNSUPPORTED_TYPES = ['object', 'array', 'list', 'time', 'year', 'yearmonth', 'duration', 'geopoint', 'geojson', 'any'];
const CONSTRAINTS = ['required', 'unique', 'minLength', 'maxLength', 'minimum', 'maximum', 'pattern', 'enum'];
// Declared members that are not Table Schema members: outside `importd` they are a mistake, not data.
const DIALECT_FIELD_ONLY = ['key', 'label', 'required', 'unique', 'pattern', 'errorMessage', 'minLength', 'maxLength', 'min', 'max', 'decimals', 'options', 'enum', 'formats', 'numberFormat', 'defaultCountry', 'transforms', 'default'];
const DIALECT_TEMPLATE_ONLY = ['uniqueTogether', 'onInvalid', 'extraColumns', 'review'];
// What importd reads as true and false (src/rules/cells.ts), compared without case.
const TRUE_VALUES = ['true', 'yes', 'y', '1'];
const FALSE_VALUES = ['false', 'no', 'n', '0'];
const GROUP_CHARS: Record<string, (string | undefined)[]> = { us: [undefined, '', ','], eu: [undefined, '', '.', ' '] };

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const defined = (members: Json): Json => Object.fromEntries(Object.entries(members).filter(([, value]) => value !== undefined));
const strptime = (format: DateFormat): string => format.replace('YYYY', '%Y').replace('MM', '%m').replace('DD', '%d');
const DATE_PATTERNS = new Map(DATE_FORMATS.filter((f) => f !== 'excel').map((f) => [strptime(f), f]));

/**
 * Whether a template schema is written as a Table Schema: `fields` a non-empty array of objects that each
 * have `name` and none has `key` (the declared dialect names fields by `key`).
 */
export function isTableSchema(schema: unknown): schema is Json & { fields: Json[] } {
  if (!isObject(schema) || !Array.isArray(schema.fields) || schema.fields.length === 0) return false;
  return schema.fields.every((field) => isObject(field) && 'name' in field && !('key' in field));
}

/** A Table Schema as a declared schema; `issues` (paths inside the Table Schema) say why it cannot be. */
export function fromTableSchema(table: Json & { fields: unknown[] }): { schema: Json; issues: TableSchemaIssue[] } {
  const issues: TableSchemaIssue[] = [];
  const fail: Fail = (path, message) => issues.push({ path, message });
  const { fields, primaryKey, missingValues, foreignKeys, importd, ...rest } = table;
  refuseDialectMembers(rest, DIALECT_TEMPLATE_ONLY, [], fail);
  if (foreignKeys !== undefined) fail(['foreignKeys'], 'cannot be honoured: importd checks each import on its own');
  checkMissingValues(missingValues, ['missingValues'], fail);
  const names = new Set<string>();
  const converted = fields.map((field, index) => fromField(field, ['fields', index], fail, names));
  for (const problem of primaryKeyProblems(primaryKey, names)) fail(['primaryKey', ...problem.path], problem.message);
  const schema = { ...rest, fields: converted, ...defined({ primaryKey }), ...extension(importd, ['importd'], fail) };
  return { schema, issues };
}

/** A declared schema (one DeclaredSchema accepts, as stored) as a Table Schema. */
export function toTableSchema(schema: Json & { fields: unknown[] }): Json {
  const { fields, primaryKey, uniqueTogether, onInvalid, extraColumns, review, ...rest } = schema;
  const importd = defined({ uniqueTogether, onInvalid, extraColumns, review });
  return { ...rest, fields: fields.map(toField), ...defined({ primaryKey }), missingValues: [''], ...(Object.keys(importd).length > 0 && { importd }) };
}

/** What is wrong with a `primaryKey` (a field name or a non-empty array of them) over these field names. */
export function primaryKeyProblems(primaryKey: unknown, names: ReadonlySet<string>): TableSchemaIssue[] {
  if (primaryKey === undefined) return [];
  const list = typeof primaryKey === 'string' ? [primaryKey] : primaryKey;
  if (!Array.isArray(list) || list.length === 0 || !list.every((name) => typeof name === 'string')) {
    return [{ path: [], message: 'must be a field name or a non-empty array of field names' }];
  }
  return list.flatMap((name, i) => (names.has(name) ? [] : [{ path: typeof primaryKey === 'string' ? [] : [i], message: `${JSON.stringify(name)} is not a field` }]));
}

function fromField(raw: unknown, at: Path, fail: Fail, names: Set<string>): Json {
  if (!isObject(raw)) return fail(at, 'must be an object'), {};
  const { name, title, description, type, format, constraints, trueValues, falseValues, decimalChar, groupChar, bareNumber, missingValues, importd, ...rest } = raw;
  refuseDialectMembers(rest, DIALECT_FIELD_ONLY, at, fail);
  if (typeof name !== 'string' || name.length === 0 || name.length > 255) fail([...at, 'name'], 'must be 1 to 255 characters');
  else if (names.has(name)) fail([...at, 'name'], `declares ${JSON.stringify(name)} a second time`);
  else names.add(name);
  for (const [member, value] of Object.entries({ title, description })) if (value !== undefined && typeof value !== 'string') fail([...at, member], 'must be a string');
  const kind = type ?? 'string';
  const field: Json = { ...rest, key: name, ...defined({ label: title, description }) };
  if (typeof kind !== 'string' || !TYPES.includes(kind)) {
    const why = UNSUPPORTED_TYPES.includes(String(kind)) ? `${JSON.stringify(kind)} cannot be honoured by importd` : 'is not a Table Schema type';
    fail([...at, 'type'], `${why}; importd reads ${TYPES.join(', ')}`);
  } else {
    Object.assign(field, typed(kind, type !== undefined, format, at, fail));
  }
  const onlyFor = (member: string, value: unknown, types: string[]) => value !== undefined && !types.includes(String(kind)) && fail([...at, member], `applies only to ${types.join(', ')} fields`);
  onlyFor('trueValues', trueValues, ['boolean']);
  onlyFor('falseValues', falseValues, ['boolean']);
  onlyFor('decimalChar', decimalChar, ['number', 'integer']);
  onlyFor('groupChar', groupChar, ['number', 'integer']);
  onlyFor('bareNumber', bareNumber, ['number', 'integer']);
  checkBooleanValues(trueValues, TRUE_VALUES, [...at, 'trueValues'], fail);
  checkBooleanValues(falseValues, FALSE_VALUES, [...at, 'falseValues'], fail);
  if (decimalChar !== undefined || groupChar !== undefined) field.numberFormat = numberFormat(decimalChar, groupChar, at, fail);
  if (bareNumber !== undefined && bareNumber !== true) fail([...at, 'bareNumber'], 'importd reads bare numbers only (true)');
  checkMissingValues(missingValues, [...at, 'missingValues'], fail);
  if (constraints !== undefined) Object.assign(field, fromConstraints(constraints, String(kind), field, [...at, 'constraints'], fail));
  return { ...field, ...extension(importd, [...at, 'importd'], fail) };
}

function typed(kind: string, explicit: boolean, format: unknown, at: Path, fail: Fail): Json {
  const bad = (why: string) => (fail([...at, 'format'], why), {});
  if (format === undefined || format === 'default') return explicit ? { type: kind } : {};
  if (kind === 'string') return format === 'email' ? { type: 'email' } : format === 'uri' ? { type: 'url' } : bad('importd reads string formats default, email, uri');
  if (kind === 'date' && format === 'any') return bad('importd never guesses a date format: name one, such as "%d/%m/%Y"');
  const pattern = kind === 'date' && typeof format === 'string' ? DATE_PATTERNS.get(format) : undefined;
  if (pattern !== undefined) return { type: 'date', formats: [pattern] };
  const known = kind === 'date' ? `default, ${[...DATE_PATTERNS.keys()].join(', ')}` : 'default';
  return bad(`importd reads ${kind} formats ${known}`);
}

function fromConstraints(raw: unknown, kind: string, field: Json, at: Path, fail: Fail): Json {
  if (!isObject(raw)) return fail(at, 'must be an object'), {};
  const out: Json = {};
  const isString = kind === 'string';
  const numeric = kind === 'number' || kind === 'integer';
  for (const [member, value] of Object.entries(raw)) {
    const here = [...at, member];
    if (!CONSTRAINTS.includes(member)) fail(here, `is not a constraint importd honours (${CONSTRAINTS.join(', ')})`);
    else if (member === 'required' || member === 'unique') typeof value === 'boolean' ? (out[member] = value) : fail(here, 'must be a boolean');
    else if (member === 'minLength' || member === 'maxLength') {
      if (!isString) fail(here, 'applies only to string fields');
      else Number.isInteger(value) && (value as number) >= 0 ? (out[member] = value) : fail(here, 'must be a non-negative integer');
    } else if (member === 'minimum' || member === 'maximum') {
      if (!numeric) fail(here, 'importd bounds only number and integer fields');
      else typeof value === 'number' && Number.isFinite(value) ? (out[member === 'minimum' ? 'min' : 'max'] = value) : fail(here, 'must be a number');
    } else if (member === 'pattern') {
      if (!isString) fail(here, 'applies only to string fields');
      else if (typeof value !== 'string') fail(here, 'must be a string');
      else {
        const problem = compilePattern(value).problem;
        problem === undefined ? (out.pattern = value) : fail(here, `does not compile: ${problem}`);
      }
    } else if (!isString || field.type !== undefined && field.type !== 'string') fail(here, 'importd takes an enum only on string fields of the default format');
    else if (!Array.isArray(value) || value.length === 0 || !value.every((v) => typeof v === 'string')) fail(here, 'must be a non-empty array of strings');
    else Object.assign(out, { type: 'enum', options: [...value] });
  }
  if (typeof out.min === 'number' && typeof out.max === 'number' && out.min > out.max) fail([...at, 'minimum'], 'must not be greater than maximum');
  if (typeof out.minLength === 'number' && typeof out.maxLength === 'number' && out.minLength > out.maxLength) fail([...at, 'minLength'], 'must not be greater than maxLength');
  return out;
}

function toField(entry: unknown): Json {
  const { key, label, description, type, required, unique, minLength, maxLength, min, max, pattern, options, formats, numberFormat, ...rest } = (typeof entry === 'string' ? { key: entry } : entry) as Json;
  const importd: Json = { ...rest };
  const field: Json = { name: key, ...defined({ title: label, description }) };
  const constraints: Json = defined({ required, unique });
  const numeric = type === 'number' || type === 'integer';
  const stringy = type === undefined || type === 'string' || type === 'email' || type === 'url' || type === 'phone' || type === 'enum';
  if (type === 'email' || type === 'url') Object.assign(field, { type: 'string', format: type === 'email' ? 'email' : 'uri' });
  else if (type === 'phone' || type === 'enum') field.type = 'string';
  else if (type !== undefined) field.type = type;
  if (type === 'phone') importd.type = 'phone';
  Object.assign(stringy ? constraints : importd, defined({ minLength, maxLength, pattern }));
  Object.assign(numeric ? constraints : importd, numeric ? defined({ minimum: min, maximum: max }) : defined({ min, max }));
  if (type === 'enum' && Array.isArray(options)) {
    const values = options.map((option) => (typeof option === 'string' ? option : (option as Json).value));
    constraints.enum = values;
    if (!options.every((option) => typeof option === 'string')) importd.options = options;
  } else if (options !== undefined) importd.options = options;
  const single = Array.isArray(formats) && formats.length === 1 && formats[0] !== 'excel' ? (formats[0] as DateFormat) : undefined;
  if (type === 'date' && single !== undefined) field.format = strptime(single);
  else if (formats !== undefined) importd.formats = formats;
  if (numeric && (numberFormat === 'us' || numberFormat === 'eu')) field.decimalChar = numberFormat === 'us' ? '.' : ',';
  else if (numberFormat !== undefined) importd.numberFormat = numberFormat;
  return { ...field, ...(Object.keys(constraints).length > 0 && { constraints }), ...(Object.keys(importd).length > 0 && { importd }) };
}

function numberFormat(decimalChar: unknown, groupChar: unknown, at: Path, fail: Fail): string | undefined {
  const format = decimalChar === undefined || decimalChar === '.' ? 'us' : decimalChar === ',' ? 'eu' : undefined;
  if (format === undefined) return void fail([...at, 'decimalChar'], 'importd reads "." (numberFormat us) or "," (numberFormat eu)');
  if (!GROUP_CHARS[format]!.includes(groupChar as string | undefined)) fail([...at, 'groupChar'], `with decimalChar ${JSON.stringify(decimalChar ?? '.')} importd reads groupChar ${format === 'us' ? '","' : '"." or " "'}`);
  return format;
}

function checkBooleanValues(values: unknown, known: string[], at: Path, fail: Fail): void {
  if (values === undefined) return;
  if (!Array.isArray(values) || !values.every((v) => typeof v === 'string')) return fail(at, 'must be an array of strings');
  const unknown = values.find((v) => !known.includes(v.toLowerCase()));
  if (unknown !== undefined) fail(at, `importd cannot read ${JSON.stringify(unknown)}; it reads ${known.join(', ')} (any case)`);
}

function checkMissingValues(values: unknown, at: Path, fail: Fail): void {
  if (values === undefined || (Array.isArray(values) && values.length === 1 && values[0] === '')) return;
  fail(at, 'importd treats only empty cells as missing: must be [""] (the default) or left out');
}

function refuseDialectMembers(members: Json, names: string[], at: Path, fail: Fail): void {
  for (const name of names) if (name in members) fail([...at, name], 'is not a Table Schema member; write importd members inside "importd"');
}

function extension(importd: unknown, at: Path, fail: Fail): Json {
  if (importd === undefined) return {};
  if (!isObject(importd)) return fail(at, 'must be an object'), {};
  return importd;
}
