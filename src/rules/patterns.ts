import { RE2JS } from 're2js';

/**
 * A tenant's pattern compiled for a linear-time engine (re2js: no backtracking, so no pattern and no cell can
 * stall the server). Features RE2 lacks (look-around, back-references) fail to compile and are refused when the
 * template is written. Matched like JSON Schema's `pattern`: anywhere in the text unless anchored.
 */
export function compilePattern(source: string): { test?: (text: string) => boolean; problem?: string } {
  try {
    const compiled = RE2JS.compile(source);
    return { test: (text) => compiled.test(text) };
  } catch (error) {
    return { problem: error instanceof Error ? error.message : String(error) };
  }
}
