import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigSchema } from '../../src/config/config';
import { readDoc, tableRows } from './markdown';

// docs/configuration.md against the one config schema, read at test time: a setting added to the schema
// without its row here fails, and so does a row for a setting the schema no longer has.
const PAGE = readDoc('docs/configuration.md');

const documented = Object.keys(ConfigSchema.shape) as (keyof typeof ConfigSchema.shape)[];

/** The rows of docs/configuration.md's settings tables: the first column a variable, and its default. */
const settingRows = new Map<string, string>();
for (const { header, cells } of tableRows(PAGE)) {
  if (header[0] !== 'variable') continue;
  const name = /^`(IMPORTD_[A-Z0-9_]+)`$/.exec(cells[0]!)?.[1];
  assert.ok(name, `a settings row names one variable in its first cell: ${cells[0]}`);
  assert.ok(!settingRows.has(name), `${name} has one row`);
  settingRows.set(name, cells[header.indexOf('default')]!);
}

describe('docs/configuration.md', () => {
  it('has a row for every setting of the config schema', () => {
    const missing = documented.filter((name) => !settingRows.has(name));
    assert.deepEqual(missing, [], 'settings without a row in docs/configuration.md');
  });

  it('names no IMPORTD_ variable the config schema does not have', () => {
    const named = new Set(PAGE.match(/IMPORTD_[A-Z0-9_]+/g));
    const unknown = [...named].filter((name) => !(name in ConfigSchema.shape));
    assert.deepEqual(unknown, []);
  });

  it('gives each setting the default the schema applies', () => {
    for (const name of documented) {
      const cell = settingRows.get(name)!;
      const applied = ConfigSchema.shape[name].parse(undefined);
      const unset = applied === undefined || (Array.isArray(applied) && applied.length === 0);
      const written = /^`([^`]+)`/.exec(cell)?.[1];
      if (unset) {
        // No default of its own: documented as unset, generated, or derived from other settings ("... or ...").
        assert.ok(written === undefined || /\bor\b/.test(cell), `${name}: the schema has no default, the page says ${cell}`);
      } else {
        assert.ok(written !== undefined, `${name}: its default is written as a value in backquotes: ${cell}`);
        // Parsed as if set to the documented text, it must give what the schema gives unset.
        assert.deepEqual(ConfigSchema.shape[name].parse(written), applied, `${name}: documented default ${written}`);
      }
    }
  });
});
