import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { build } from 'esbuild';
import fc from 'fast-check';
import type { Page } from 'puppeteer-core';
import { browser } from '../../scripts/embed-build.mjs';
import { DATE_FORMATS } from '../../src/rules/dates';
import { FIELD_TYPES, TRANSFORMS } from '../../src/rules/dialect';
import { createTemplate } from '../../src/services/templates';
import { chromiumSkipReason, launchChromium, type Chromium } from '../helpers/chromium';
import { call, createHarness, createTestEnvironment, json, type Harness, type TestEnvironment } from '../helpers/harness';

// Page globals, used only inside page.evaluate callbacks (the test tsconfig has no DOM library).
declare const window: any;

/** Cells that look like another type, or like nothing: the values users' files hold. */
const TRICKY = [
  '', '  ', 'abc', ' Mixed  Case ', '00123', '1,234.5', '1.234,5', '1.234', '1,234', '12345678901234567890', '-0.5', '1e3', '3', '0',
  'yes', 'N', 'true', '03/04/2025', '13/04/2025', '2025-04-03', '2025-04-03T09:30:00Z', '2025-04-03 09:30', '04.03.2025', '45720',
  '45720.5', '60', '+1 415 555 0123', '030 1234567', '+49 30 1234567', '(415) 555-0123', '12/25', 'a@b.co', 'A@X.IO', 'not-an-email',
  'https://example.com/x', 'ftp://x', 'deutschland', 'DE', 'fr', 'Côte d’Ivoire', "cote d'ivoire", 'ÉCOLE', '__proto__', 'x'.repeat(40),
];
const OPTIONS = [{ value: 'DE', label: 'Germany', alternatives: ['Deutschland', 'Allemagne'] }, { value: 'FR', label: 'France' }, { value: 'CI', label: "Côte d'Ivoire" }, 'ES'];

const cell = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...TRICKY) }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }) }, { weight: 1, arbitrary: fc.integer().map(String) });

const field = (key: string) =>
  fc
    .record(
      {
        type: fc.constantFrom(...FIELD_TYPES),
        required: fc.boolean(),
        unique: fc.boolean(),
        transforms: fc.subarray([...TRANSFORMS]),
        formats: fc.subarray([...DATE_FORMATS], { minLength: 1 }),
        numberFormat: fc.constantFrom('us', 'eu', 'auto'),
        bounds: fc.tuple(fc.integer({ min: -50, max: 50 }), fc.integer({ min: 0, max: 100 })),
        decimals: fc.integer({ min: 0, max: 3 }),
        defaultCountry: fc.constantFrom('DE', 'US', 'FR'),
        pattern: fc.constantFrom('^\\d{5}$', '[a-z]+', '^(a+)+$'),
        default: fc.constantFrom('n/a', '0'),
      },
      { requiredKeys: ['type'] },
    )
    .map(({ type, bounds, ...rest }) => {
      const declared: Record<string, unknown> = { key, label: `Field ${key}`, type, required: rest.required, unique: rest.unique };
      if (type === 'string') Object.assign(declared, { transforms: rest.transforms, pattern: rest.pattern, default: rest.default });
      if (type === 'number' || type === 'integer') Object.assign(declared, { numberFormat: rest.numberFormat, decimals: rest.decimals, ...(bounds ? { min: bounds[0], max: bounds[0] + bounds[1] } : {}) });
      if (type === 'date' || type === 'datetime') declared.formats = rest.formats;
      if (type === 'phone') declared.defaultCountry = rest.defaultCountry;
      if (type === 'enum') declared.options = OPTIONS;
      if (type === 'string' && bounds) Object.assign(declared, { minLength: Math.abs(bounds[0]) % 5, maxLength: (Math.abs(bounds[0]) % 5) + bounds[1] });
      return JSON.parse(JSON.stringify(declared)) as Record<string, unknown>;
    });

const KEYS = ['a', 'b', 'c', '__proto__'];
const template = fc.record({
  fields: fc.subarray(KEYS, { minLength: 1 }).chain((keys) => fc.tuple(...keys.map(field))),
  uniqueTogether: fc.constantFrom(undefined, [['a', 'b']]),
});
const rows = fc.array(fc.dictionary(fc.constantFrom(...KEYS), cell, { maxKeys: 4 }), { minLength: 1, maxLength: 8 });

describe('the rules in the browser bundle answer as the server does', { skip: chromiumSkipReason() }, () => {
  let h: Harness;
  let env: TestEnvironment;
  let chromium: Chromium;
  let page: Page;
  let templates = 0;

  before(async () => {
    h = await createHarness();
    env = await createTestEnvironment(h);
    const probe = await build({ ...browser, entryPoints: [path.join(__dirname, 'rules-probe.ts')], write: false });
    chromium = await launchChromium();
    page = await chromium.browser.newPage();
    await page.setContent('<!doctype html><title>rules</title>');
    await page.addScriptTag({ content: probe.outputFiles[0]!.text });
  });
  after(async () => {
    await chromium?.close();
    h?.close();
  });

  it('on generated templates and rows: the same stored values and the same errors, row by row', async () => {
    await fc.assert(
      fc.asyncProperty(template, rows, async (generated, records) => {
        const schema = { ...generated, uniqueTogether: generated.uniqueTogether?.filter((group) => group.every((key) => generated.fields.some((f) => f.key === key))) };
        if (schema.uniqueTogether?.length === 0) delete schema.uniqueTogether;
        const { id } = await createTemplate(h.ctx, env.accountId, { key: `parity-${templates++}`, schema });
        const inPage = JSON.parse(await page.evaluate((s: string, r: string) => window.importdRules.validate(s, r), JSON.stringify(schema), JSON.stringify(records)));
        const created = await call(h, 'POST', '/v1/imports', { key: env.secretKey, rawBody: `{"meta":{"schemaId":${JSON.stringify(id)}},"rows":${JSON.stringify(records)}}`, contentType: 'application/json' });
        assert.equal(created.status, 201);
        const stored = await json(await call(h, 'GET', `/v1/imports/${(await json(created)).id}/rows?limit=100`, { key: env.secretKey }));
        assert.deepEqual(
          inPage.map((answer: { row: unknown; errors?: unknown }) => ({ row: answer.row, errors: answer.errors ?? null })),
          stored.data.map((row: { data: unknown; errors?: unknown }) => ({ row: row.data, errors: row.errors ?? null })),
        );
      }),
      { numRuns: 150 },
    );
  });
});
