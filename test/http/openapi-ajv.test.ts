import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compiler, type Doc } from '../helpers/openapi';
import { THEME_EXAMPLE } from '../../src/services/themes/example';
import { call, json } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';

// What a validating client (ajv, zod-based generators) makes of the served document (issue 41): OpenAPI 3.1
// schemas are JSON Schema 2020-12, compiled here in strict mode (unknown keywords, formats and bad regexes
// fail), and every example the document gives must pass its own schema.
interface Media {
  schema?: unknown;
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
}

function mediaOf(doc: Doc): { where: string; media: Media }[] {
  const found: { where: string; media: Media }[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      for (const [type, media] of Object.entries<Media>(op.requestBody?.content ?? {})) found.push({ where: `${method} ${path} body ${type}`, media });
      for (const [status, response] of Object.entries<any>(op.responses ?? {})) {
        for (const [type, media] of Object.entries<Media>(response.content ?? {})) found.push({ where: `${method} ${path} ${status} ${type}`, media });
      }
    }
  }
  return found;
}

describe('/v1/openapi.json for validating clients', () => {
  const { h, env } = useHarness();
  const documentOf = async () => json<Doc>(await call(h, 'GET', '/v1/openapi.json'));

  it('compiles every schema with ajv (JSON Schema 2020-12, strict) and every pattern as an ECMA-262 regex without flags', async () => {
    const doc = await documentOf();
    const { ajv } = compiler(doc);
    const names = Object.keys(doc.components.schemas);
    assert.ok(names.length > 30, String(names.length));
    for (const name of names) assert.ok(ajv.getSchema(`doc#/$defs/${name}`), name);
    const patterns: string[] = [];
    JSON.stringify(doc, (key, value) => (key === 'pattern' && typeof value === 'string' && patterns.push(value), value));
    assert.ok(patterns.length > 80, String(patterns.length));
    for (const pattern of patterns) {
      assert.doesNotThrow(() => new RegExp(pattern, 'u'), pattern);
      // A JavaScript literal's flag written into the string ("...$/i") is text to every other client.
      assert.doesNotMatch(pattern, /\$\/[a-z]+$/, pattern);
    }
  });

  it('gives examples that pass their own schemas, the theme example among them', async () => {
    const doc = await documentOf();
    const { compile } = compiler(doc);
    let checked = 0;
    for (const [name, schema] of Object.entries(doc.components.schemas)) {
      for (const example of schema.examples ?? []) {
        const validate = compile({ $ref: `#/components/schemas/${name}` });
        assert.ok(validate(example), `${name}: ${JSON.stringify(validate.errors)}`);
        checked++;
      }
    }
    for (const { where, media } of mediaOf(doc)) {
      const examples = [...(media.example === undefined ? [] : [media.example]), ...Object.values(media.examples ?? {}).map((e) => e.value)];
      for (const example of examples) {
        const validate = compile(media.schema);
        assert.ok(validate(example), `${where}: ${JSON.stringify(validate.errors)}`);
        checked++;
      }
    }
    assert.ok(checked >= 4, String(checked));
    assert.deepEqual(doc.components.schemas.ThemeInput!.examples, [THEME_EXAMPLE]);
  });

  it('agrees with the server on theme colours, in either case', async () => {
    const validate = compiler(await documentOf()).compile({ $ref: '#/components/schemas/ThemeInput' });
    const withColor = (color: string) => ({ ...THEME_EXAMPLE, lightColors: { ...THEME_EXAMPLE.lightColors, base: color } });
    const cases: [string, boolean][] = [
      ['#abc', true],
      ['#ABCDEF', true],
      ['RGB(1 2 3)', true],
      ['Hsla(10DEG, 20%, 30%, 0.5)', true],
      ['OKLCH(0.5 0.1 120 / 40%)', true],
      ['hsl(1Turn 2% 3%)', true],
      ['red', false],
      ['#abcg', false],
      ['rgb(1 2 3)/i', false],
      ['url(x)', false],
      ['rgb(1 2 3); color: red', false],
    ];
    for (const [color, accepted] of cases) {
      assert.equal(validate(withColor(color)), accepted, `ajv, ${color}`);
      const answer = await call(h, 'PUT', '/v1/themes', { key: env.secretKey, body: withColor(color) });
      if (accepted) assert.notEqual(answer.status, 400, `server, ${color}: ${await answer.text()}`);
      else assert.equal(answer.status, 400, `server, ${color}`);
    }
    // The example itself is a theme the server takes.
    assert.equal((await call(h, 'POST', '/v1/themes', { key: env.secretKey, body: THEME_EXAMPLE })).status, 201);
  });
});
