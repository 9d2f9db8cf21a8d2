// Bundled for the page by rules-parity.test.ts with the importer's esbuild options: the rules exactly as the
// importer runs them in the browser, reachable from page.evaluate.
import { validateRecords } from '../../src/embed/validate';

(globalThis as unknown as { importdRules: unknown }).importdRules = {
  /** JSON in, JSON out: `__proto__` keys survive the trip through the DevTools protocol. */
  validate: (schema: string, records: string) => JSON.stringify(validateRecords(JSON.parse(schema), JSON.parse(records))),
};
