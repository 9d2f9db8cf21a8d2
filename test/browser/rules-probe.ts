// Bundled for the page by rules-parity.test.ts with the importer's esbuild options: the rules exactly as the
// importer runs them in the browser, reachable from page.evaluate.
import { ruleMessage } from '../../src/embed/i18n/rule-message';
import { createTranslator } from '../../src/embed/i18n/translate';
import { validateRecords } from '../../src/embed/validate';

const english = createTranslator(['en']);

(globalThis as unknown as { importdRules: unknown }).importdRules = {
  /**
   * JSON in, JSON out: `__proto__` keys survive the trip through the DevTools protocol. Each error as the
   * server stores it, its message as the review grid renders it in English from its code and params.
   */
  validate: (schema: string, records: string) =>
    JSON.stringify(
      validateRecords(JSON.parse(schema), JSON.parse(records))?.map(({ row, errors }) => ({
        row,
        errors: errors?.map((error) => ({ key: error.key, code: error.code, message: ruleMessage(english, error) })),
      })),
    ),
};
