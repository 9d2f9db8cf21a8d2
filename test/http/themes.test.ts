import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { COLOR_MEMBERS } from '../../src/services/themes';
import { validTheme, withPath } from '../helpers/fixtures';
import { call, json, testClock } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';

const THEME_MEMBERS = ['createdAt', 'darkColors', 'description', 'effects', 'id', 'lightColors', 'name', 'radius', 'sizes', 'updatedAt'];

describe('themes', () => {
  const clock = testClock();
  const { h, env, other, fresh } = useHarness({ clock, environments: { other: { account: 'other-account' }, fresh: { account: 'fresh-account' } } });
  const send = (method: 'POST' | 'PUT', body: unknown, key = env.secretKey) => call(h, method, '/v1/themes', { key, body });
  const themeRow = (accountId: string) => h.ctx.store.themes.find(accountId);

  it('answers 404 to GET and to PUT before the account has a theme', async () => {
    const get = await call(h, 'GET', '/v1/themes', { key: env.secretKey });
    assert.equal(get.status, 404);
    const put = await send('PUT', validTheme());
    assert.equal(put.status, 404);
    assert.equal((await json(put)).error.code, 'not_found');
    assert.equal(await themeRow(env.accountId), undefined);
  });

  it('creates the theme: 201, every member, an ETag, stored for the account', async () => {
    const response = await send('POST', validTheme());
    assert.equal(response.status, 201);
    const text = await response.text();
    const body = JSON.parse(text);
    assert.deepEqual(Object.keys(body).sort(), THEME_MEMBERS);
    const { id, createdAt, updatedAt, ...members } = body;
    assert.deepEqual(members, validTheme());
    assert.equal(createdAt, clock().toISOString());
    assert.equal(updatedAt, createdAt);
    assert.match(response.headers.get('ETag') ?? '', /^"[A-Za-z0-9_-]{43}"$/);
    const row = (await themeRow(env.accountId))!;
    assert.equal(row.id, id);
    assert.deepEqual(JSON.parse(row.lightColors), validTheme().lightColors);
  });

  it('answers 409 to a second POST and keeps the first theme', async () => {
    const before = await themeRow(env.accountId);
    const response = await send('POST', validTheme({ name: 'Second' }));
    assert.equal(response.status, 409);
    assert.equal((await json(response)).error.code, 'conflict');
    assert.deepEqual(await themeRow(env.accountId), before);
  });

  it('keeps one theme per account: another account creates its own and sees only it', async () => {
    assert.equal((await send('POST', validTheme({ name: 'Other' }), other.secretKey)).status, 201);
    const mine = await json(await call(h, 'GET', '/v1/themes', { key: env.secretKey }));
    const theirs = await json(await call(h, 'GET', '/v1/themes', { key: other.secretKey }));
    assert.equal(mine.name, 'Brand');
    assert.equal(theirs.name, 'Other');
    assert.notEqual(mine.id, theirs.id);
    assert.equal((await h.sql('SELECT count(*) AS n FROM themes'))[0]!.n, 2);
  });

  describe('GET /v1/themes with ETag', () => {
    it('answers 304 with no body to If-None-Match of the current tag (strong or weak form, or in a list)', async () => {
      const first = await call(h, 'GET', '/v1/themes', { key: env.secretKey });
      assert.equal(first.status, 200);
      assert.equal(first.headers.get('Cache-Control'), 'private, no-cache');
      const etag = first.headers.get('ETag')!;
      for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
        const again = await call(h, 'GET', '/v1/themes', { key: env.secretKey, headers: { 'If-None-Match': header } });
        assert.equal(again.status, 304, header);
        assert.equal(await again.text(), '');
        assert.equal(again.headers.get('ETag'), etag);
      }
    });

    it('answers 200 to a stale tag, and PUT changes the tag', async () => {
      const before = await call(h, 'GET', '/v1/themes', { key: env.secretKey });
      const oldTag = before.headers.get('ETag')!;
      const stale = await call(h, 'GET', '/v1/themes', { key: env.secretKey, headers: { 'If-None-Match': '"stale"' } });
      assert.equal(stale.status, 200);
      clock.advance(1000);
      const put = await send('PUT', validTheme({ name: 'Renamed' }));
      assert.equal(put.status, 200);
      const newTag = put.headers.get('ETag')!;
      assert.notEqual(newTag, oldTag);
      const after = await call(h, 'GET', '/v1/themes', { key: env.secretKey, headers: { 'If-None-Match': oldTag } });
      assert.equal(after.status, 200);
      assert.equal(after.headers.get('ETag'), newTag);
      const body = await json(after);
      assert.equal(body.name, 'Renamed');
      assert.equal(body.updatedAt, clock().toISOString());
      assert.notEqual(body.createdAt, body.updatedAt);
      assert.equal((await themeRow(env.accountId))!.name, 'Renamed');
    });

    it('answers the Public Key from an allowed origin, with CORS, and the same ETag', async () => {
      const secret = await call(h, 'GET', '/v1/themes', { key: env.secretKey });
      const response = await call(h, 'GET', '/v1/themes', { key: env.publicKey, origin: env.origin });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('Access-Control-Allow-Origin'), env.origin);
      assert.equal(response.headers.get('ETag'), secret.headers.get('ETag'));
      const viaHeader = await call(h, 'GET', '/v1/themes', { headers: { 'X-Public-Key': env.publicKey }, origin: env.origin });
      assert.equal(viaHeader.status, 200);
    });

    for (const [name, origin] of [
      ['a foreign origin', 'https://evil.example.net'],
      ['a look-alike origin', 'https://app.example.com.evil.net'],
      ['no origin', undefined],
    ] as const) {
      it(`refuses the Public Key from ${name}`, async () => {
        const response = await call(h, 'GET', '/v1/themes', { key: env.publicKey, ...(origin && { origin }) });
        assert.equal(response.status, 403);
        assert.equal((await json(response)).error.code, 'origin_not_allowed');
        assert.equal(response.headers.get('Access-Control-Allow-Origin'), null);
      });
    }
  });

  describe('validation (POST and PUT)', () => {
    const goodColors = [
      '#abc', '#ABCD', '#a1b2c3', '#a1b2c3d4', 'rgb(1, 2, 3)', 'rgba(255,0,0,0.5)', 'rgb(1 2 3 / 50%)', 'RGB(10%, 20%, 30%)',
      'hsl(210, 50%, 40%)', 'hsla(210 50% 40% / .5)', 'hsl(-30 5% 5%)', 'oklch(0.7 0.12 210)', 'oklch(70% 0.1 120 / 0.8)',
      // CSS Color 4: angle units on the hue, space syntax with `/ alpha`.
      'hsl(120deg 50% 50%)', 'hsl(120deg 50% 50% / 0.5)', 'hsl(0.5turn 40% 40%)', 'hsla(1.2rad, 50%, 50%, .5)', 'oklch(70% 0.1 120deg)',
    ];
    for (const color of goodColors) {
      it(`accepts the color ${color}`, async () => {
        const response = await send('PUT', withPath(validTheme(), 'darkColors.accent', color));
        assert.equal(response.status, 200, await response.text());
        assert.equal(JSON.parse((await themeRow(env.accountId))!.darkColors).accent, color);
      });
    }

    const numbersAccepted: [string, number][] = [
      ['radius.selector', 0], ['radius.field', 100], ['radius.box', 55.5], ['sizes.selector', 0], ['sizes.field', 100],
      ['effects.border', 100], ['effects.depth', 1], ['effects.noise', 0], ['effects.depth', 0], ['effects.noise', 1],
    ];
    for (const [path, value] of numbersAccepted) {
      it(`accepts ${path} = ${value} (edge)`, async () => {
        assert.equal((await send('PUT', withPath(validTheme(), path, value))).status, 200);
      });
    }

    const badColors = [
      'red; background:url(x)', 'expression(alert(1))', '', 'red', 'transparent', 'var(--x)', 'url(x)', 'url(javascript:alert(1))',
      '#12', '#12345', '#1234567', '#ggg', '#fff;', '#fff}', '#fff{', '<b>', '"#fff"', "'#fff'", '#fff\\', '#fff ', ' #fff', '#fff\n',
      'rgb(1,2,3);', 'rgb(1,2,3)}', 'rgb(1 2 3', 'rgb(1,2)', 'rgb(1,2,3,4,5)', 'rgb(calc(1),2,3)', 'rgb(1 2 var(--b))',
      'rgb(1,2,3)/*x*/', 'hsl(1,2,3) x', 'oklch(0.5 0.1 var(--h))', 'oklch(1,2,3)', 'lab(50 20 30)', 'rgb(1e3,2,3)',
      'rgb(1\t2\t3)', 'rgb(1 2 3 / 0.5', `rgb(${'1'.repeat(40)}, 2, 3)`,
      // Well-shaped but not valid CSS: an angle where no hue is, legacy rgb() mixing numbers and percentages.
      'rgb(10deg 20 30)', 'rgb(1%, 2, 3)', 'hsl(120 50deg 50%)', 'hsl(120deg 50% 50% / 1turn)',
    ];
    for (const color of badColors) {
      it(`rejects the color ${JSON.stringify(color)} at lightColors.primary`, () => expectInvalid(withPath(validTheme(), 'lightColors.primary', color), 'lightColors.primary'));
    }

    const rejected: [string, unknown, string][] = [
      ...(['name', 'description', 'lightColors', 'darkColors', 'radius', 'sizes', 'effects'] as const).map(
        (member): [string, unknown, string] => [`no ${member}`, withPath(validTheme(), member, undefined), member],
      ),
      ['name empty', validTheme({ name: '' }), 'name'],
      ['name of 101 characters', validTheme({ name: 'n'.repeat(101) }), 'name'],
      ['name not a string', validTheme({ name: 5 }), 'name'],
      ['description of 1001 characters', validTheme({ description: 'd'.repeat(1001) }), 'description'],
      ['description null', validTheme({ description: null }), 'description'],
      ['lightColors missing base', withPath(validTheme(), 'lightColors.base', undefined), 'lightColors.base'],
      ['darkColors missing errorContent', withPath(validTheme(), 'darkColors.errorContent', undefined), 'darkColors.errorContent'],
      ['lightColors with an extra member', withPath(validTheme(), 'lightColors.extra', '#fff'), 'lightColors.extra'],
      ['darkColors with an extra member', withPath(validTheme(), 'darkColors.link', '#000'), 'darkColors.link'],
      ['a color that is a number', withPath(validTheme(), 'darkColors.info', 0xffffff), 'darkColors.info'],
      ['lightColors an array', validTheme({ lightColors: [] }), 'lightColors'],
      ['radius.selector below 0', withPath(validTheme(), 'radius.selector', -0.01), 'radius.selector'],
      ['radius.field above 100', withPath(validTheme(), 'radius.field', 100.01), 'radius.field'],
      ['radius.box a string', withPath(validTheme(), 'radius.box', '5'), 'radius.box'],
      ['radius.box null', withPath(validTheme(), 'radius.box', null), 'radius.box'],
      ['radius missing box', withPath(validTheme(), 'radius.box', undefined), 'radius.box'],
      ['radius with an extra member', withPath(validTheme(), 'radius.pill', 1), 'radius.pill'],
      ['sizes.selector below 0', withPath(validTheme(), 'sizes.selector', -1), 'sizes.selector'],
      ['sizes.field above 100', withPath(validTheme(), 'sizes.field', 101), 'sizes.field'],
      ['sizes with an extra member', withPath(validTheme(), 'sizes.box', 1), 'sizes.box'],
      ['effects.border below 0', withPath(validTheme(), 'effects.border', -1), 'effects.border'],
      ['effects.border above 100', withPath(validTheme(), 'effects.border', 100.5), 'effects.border'],
      ['effects.depth below 0', withPath(validTheme(), 'effects.depth', -0.01), 'effects.depth'],
      ['effects.depth above 1', withPath(validTheme(), 'effects.depth', 1.01), 'effects.depth'],
      ['effects.noise above 1', withPath(validTheme(), 'effects.noise', 2), 'effects.noise'],
      ['effects.noise below 0', withPath(validTheme(), 'effects.noise', -0.5), 'effects.noise'],
      ['effects with an extra member', withPath(validTheme(), 'effects.glow', 0), 'effects.glow'],
    ];
    for (const [name, body, path] of rejected) {
      it(`rejects ${name}: 400 validation_failed at ${path}`, () => expectInvalid(body, path));
    }

    it('rejects the same bad input on POST, storing nothing', async () => {
      const response = await send('POST', withPath(validTheme(), 'lightColors.base', 'red; background:url(x)'), fresh.secretKey);
      assert.equal(response.status, 400);
      assert.equal(await themeRow(fresh.accountId), undefined);
    });

    it('lists every member of a color set as required', async () => {
      const response = await send('PUT', validTheme({ lightColors: {} }));
      const paths = (await json(response)).error.details.map((d: { path: string }) => d.path).sort();
      assert.deepEqual(paths, COLOR_MEMBERS.map((m) => `lightColors.${m}`).sort());
    });

    async function expectInvalid(body: unknown, path: string) {
      const before = await themeRow(env.accountId);
      const response = await send('PUT', body);
      assert.equal(response.status, 400);
      const { error } = await json(response);
      assert.equal(error.code, 'validation_failed');
      assert.ok(error.details.some((d: { path: string }) => d.path === path), JSON.stringify(error.details));
      assert.deepEqual(await themeRow(env.accountId), before);
    }
  });
});
