import type { Limits } from '../config/config';
import { type ErrorDetail, validationFailed } from './errors';
import { schemaFieldKeys } from './imports/schema-fields';

/**
 * True when arrays and objects nest deeper than `maxDepth` in `value` (a scalar is depth 0, `{}` depth 1).
 * Iterative and stopping at the first excess, so a 100 000-deep value costs no stack and little time:
 * it is checked before anything recursive (JSON.stringify, zod) ever sees the value.
 */
export function nestedDeeperThan(value: unknown, maxDepth: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (depth + 1 > maxDepth) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** The same on JSON text, brackets counted outside strings: refuses a body before it is parsed. */
export function jsonTextDeeperThan(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > maxDepth) return true;
    } else if (c === 125 || c === 93) depth--;
  }
  return false;
}

/** UTF-8 size of a string, measured only when it could be over `max` (most strings are far below). */
export function utf8Over(text: string, max: number): boolean {
  return text.length * 3 > max && Buffer.byteLength(text) > max;
}

/**
 * Problems of one free-form JSON member (`meta`, `originalSchema`, a template `schema` or `metadata`)
 * against the limits: nesting first (so nothing recursive runs on an absurd value), then serialised size,
 * then, for schemas, the number of field keys. Empty when it is within them.
 */
export function jsonMemberProblems(
  path: string,
  value: unknown,
  limits: Limits,
  bound: { maxBytes: number; fields?: boolean },
): ErrorDetail[] {
  if (value === undefined) return [];
  if (nestedDeeperThan(value, limits.jsonDepth - 1)) {
    return [{ path, message: `nests arrays and objects more than ${limits.jsonDepth} levels deep` }];
  }
  if (utf8Over(JSON.stringify(value), bound.maxBytes)) return [{ path, message: `must serialise to at most ${bound.maxBytes} bytes of JSON` }];
  if (bound.fields && schemaFieldKeys(value).length > limits.schemaFields) {
    return [{ path, message: `must declare at most ${limits.schemaFields} fields` }];
  }
  return [];
}

/** Throws validation_failed when a template `schema` (or an import's `originalSchema`) is over a limit. */
export function checkSchemaLimits(path: string, schema: unknown, limits: Limits): void {
  const problems = jsonMemberProblems(path, schema, limits, { maxBytes: limits.schemaBytes, fields: true });
  if (problems.length > 0) throw validationFailed(problems);
}

/**
 * An import's meta and originalSchema within their limits (nesting, size, schema fields), checked before
 * anything else reads them, whichever way the import arrives (JSON body, parse worker, NDJSON first line).
 * Throws validation_failed.
 */
export function checkEnvelopeLimits(envelope: { meta?: unknown; originalSchema?: unknown }, limits: Limits): void {
  const problems = [
    ...jsonMemberProblems('meta', envelope.meta, limits, { maxBytes: limits.metaBytes }),
    ...jsonMemberProblems('originalSchema', envelope.originalSchema, limits, { maxBytes: limits.schemaBytes, fields: true }),
  ];
  if (problems.length > 0) throw validationFailed(problems);
}
