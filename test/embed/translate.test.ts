import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { en } from '../../src/embed/i18n/en';
import { LOCALES } from '../../src/embed/i18n/locales';
import { createTranslator } from '../../src/embed/i18n/translate';

const params = (message: string | Record<string, string>) =>
  (typeof message === 'string' ? [message] : Object.values(message)).map((text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort().join(','));

describe('the importer translator', () => {
  it('formats numbers, plurals, lists, percents, sizes and dates through Intl', () => {
    const english = createTranslator(['en']);
    assert.equal(english.t('submit', { count: 50_000 }), 'Import 50,000 rows');
    assert.equal(english.t('submit', { count: 1 }), 'Import 1 row');
    assert.equal(english.t('done', { count: 1 }), 'Imported 1 row.');
    assert.equal(english.list(['Name', 'Email', 'Zip']), 'Name, Email, and Zip');
    assert.equal(english.percent(0.93), '93%');
    assert.equal(english.size(1536), '1.5 kB');
    assert.equal(english.date('2025-04-13'), 'April 13, 2025');
    const german = createTranslator(['de-DE']);
    assert.equal(german.locale, 'de-DE');
    assert.equal(german.t('submit', { count: 50_000 }), '50.000 Zeilen importieren');
    assert.equal(german.t('rows', { count: 1 }), '1 Zeile');
    assert.equal(german.list(['A', 'B']), 'A und B');
    assert.equal(english.units(['120 new', '14 changed', '3 missing']), '120 new, 14 changed, 3 missing');
    assert.equal(german.units([german.t('changeInserted', { count: 1200 }), german.t('changeMissing', { count: 3 })]), '1.200 neu, 3 fehlend');
    assert.equal(createTranslator(['fr']).t('changeUpdated', { count: 1 }), '1 modifié');
    assert.equal(german.date('2025-04-13'), '13. April 2025');
    assert.equal(createTranslator(['fr']).t('submit', { count: 50_000 }), 'Importer 50\u202f000 lignes');
    assert.equal(createTranslator(['es']).t('allValid', { count: 2 }), 'Las 2 filas son válidas.');
  });

  it('takes the first language it has a table for, else English; a malformed tag is skipped', () => {
    assert.equal(createTranslator(['pt-BR', 'es-MX', 'de']).locale, 'es-MX');
    assert.equal(createTranslator(['x_invalid!', 'fr']).locale, 'fr');
    assert.equal(createTranslator(['ja']).t('back'), 'Back');
    assert.equal(createTranslator([]).locale, 'en');
  });

  it('leaves an unknown parameter as written (a template label may contain braces)', () => {
    assert.equal(createTranslator(['en']).t('cellLabel', { row: 3, field: '{row}' }), 'Row 3, {row}');
    assert.equal(createTranslator(['en']).t('samples'), 'For example: {values}');
  });

  it('has every key of en.ts in every locale, with the same parameters', () => {
    for (const [name, table] of Object.entries(LOCALES)) {
      for (const [key, message] of Object.entries(en)) {
        const translated = table![key as keyof typeof en];
        assert.ok(translated, `${name}.${key}`);
        assert.deepEqual([...new Set(params(translated))], [...new Set(params(message))], `${name}.${key}`);
      }
    }
  });
});
