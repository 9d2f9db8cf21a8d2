import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normalizeAllowedOrigin, normalizeRequestOrigin, originAllowed, publicSuffixWildcard } from '../../src/core/origins';

const allows = (allowed: string[], origin: string | undefined) => {
  const normalised = normalizeRequestOrigin(origin);
  return normalised !== undefined && originAllowed(normalised, allowed.map((entry) => normalizeAllowedOrigin(entry)!));
};

describe('origin matching', () => {
  const cases: [string[], string | undefined, boolean][] = [
    [['https://app.example.com'], 'https://app.example.com', true],
    [['https://app.example.com'], 'https://APP.Example.com', true],
    [['https://app.example.com'], 'https://app.example.com:443', true],
    [['https://app.example.com'], 'https://app.example.com:8443', false],
    [['https://app.example.com'], 'http://app.example.com', false],
    [['https://app.example.com'], 'https://app.example.com/', false],
    [['https://app.example.com'], 'https://app.example.com/path', false],
    [['https://app.example.com'], 'https://other.example.com', false],
    [['https://app.example.com'], 'https://app.example.com.evil.net', false],
    [['https://app.example.com'], 'null', false],
    [['https://app.example.com'], undefined, false],
    [['https://app.example.com'], '', false],
    [['https://*.example.com'], 'https://a.example.com', true],
    [['https://*.example.com'], 'https://a.b.example.com', true],
    [['https://*.example.com'], 'https://example.com', false],
    [['https://*.example.com'], 'https://evilexample.com', false],
    [['https://*.example.com'], 'https://example.com.evil.net', false],
    [['https://*.example.com'], 'http://a.example.com', false],
    [['https://*.example.com'], 'https://a.example.com:8443', false],
    [['https://*.example.com'], 'https://*.example.com', false],
    [['https://*.example.com'], 'https://user@a.example.com', false],
    [['http://localhost:3000'], 'http://localhost:3000', true],
    [['http://localhost:3000'], 'http://localhost:3001', false],
    [['http://localhost:3000'], 'https://localhost:3000', false],
    [['http://localhost:3000'], 'http://127.0.0.1:3000', false],
    [['https://example.com:8443'], 'https://example.com:8443', true],
    [[], 'https://app.example.com', false],
  ];
  for (const [allowed, origin, expected] of cases) {
    it(`${JSON.stringify(origin)} ${expected ? 'is' : 'is not'} allowed by ${allowed.join(', ') || '(none)'}`, () => {
      assert.equal(allows(allowed, origin), expected);
    });
  }
});

describe('allowed origin forms', () => {
  const valid: [string, string][] = [
    ['https://app.example.com', 'https://app.example.com'],
    ['https://APP.example.COM', 'https://app.example.com'],
    ['https://example.com:443', 'https://example.com'],
    ['https://example.com:8443', 'https://example.com:8443'],
    ['https://*.example.com', 'https://*.example.com'],
    ['http://localhost:3000', 'http://localhost:3000'],
    ['https://1password.com', 'https://1password.com'],
    ['https://app.123.example.com', 'https://app.123.example.com'],
  ];
  for (const [entry, normalised] of valid) {
    it(`accepts ${entry}`, () => assert.equal(normalizeAllowedOrigin(entry), normalised));
  }
  const invalid = [
    '',
    '*',
    'example.com',
    'http://example.com',
    'https://example.com/',
    'https://example.com/path',
    'https://*.com',
    'https://*',
    'https://*.*.example.com',
    'https://a.*.example.com',
    'http://*.example.com',
    'http://localhost',
    'http://localhost:0',
    'http://localhost:65536',
    // The default port: browsers omit it from Origin, so the entry could never match.
    'http://localhost:80',
    'http://localhost:080',
    'https://localhost:3000',
    'https://exa mple.com',
    'https://-bad.example.com',
    'https://user@example.com',
    'https://example.com?x=1',
    'ftp://example.com',
    'null',
    // IP literals are not domains.
    'https://10.0.0.1',
    'https://10.0.0.1:8443',
    'https://192.168.1.20',
    'https://*.0.0.1',
    'https://[::1]',
  ];
  for (const entry of invalid) {
    it(`rejects ${JSON.stringify(entry)}`, () => assert.equal(normalizeAllowedOrigin(entry), undefined));
  }
});

describe('wildcards over a public suffix', () => {
  const suffixes: [string, string][] = [
    ['https://*.co.uk', 'co.uk'],
    ['https://*.com.au', 'com.au'],
    ['https://*.github.io', 'github.io'],
    ['https://*.herokuapp.com', 'herokuapp.com'],
    ['https://*.s3.amazonaws.com', 's3.amazonaws.com'],
    // A wildcard rule of the list (*.ck): every name directly under ck is a suffix.
    ['https://*.anything.ck', 'anything.ck'],
  ];
  for (const [entry, suffix] of suffixes) {
    it(`${entry} spans the public suffix ${suffix}, and allows no origin even when stored`, () => {
      assert.equal(publicSuffixWildcard(normalizeAllowedOrigin(entry)!), suffix);
      assert.equal(originAllowed(`https://evil.${suffix}`, [entry]), false);
    });
  }
  const owned = ['https://*.example.co.uk', 'https://*.me.github.io', 'https://*.example.com', 'https://*.www.ck', 'https://app.co.uk', 'http://localhost:3000'];
  for (const entry of owned) {
    it(`${entry} is no public-suffix wildcard`, () => assert.equal(publicSuffixWildcard(normalizeAllowedOrigin(entry)!), undefined));
  }
  // Not a suffix itself, but with suffixes below it: anyone's S3 bucket or Azure blob site is under it.
  const above: [string, string, boolean][] = [
    ['https://*.amazonaws.com', 'https://attacker-bucket.s3.amazonaws.com', false],
    ['https://*.amazonaws.com', 'https://evil.s3.us-east-1.amazonaws.com', false],
    ['https://*.core.windows.net', 'https://evil.blob.core.windows.net', false],
    ['https://*.amazonaws.com', 'https://www.amazonaws.com', true],
    ['https://*.example.co.uk', 'https://a.b.example.co.uk', true],
    ['https://*.me.github.io', 'https://docs.me.github.io', true],
    ['https://*.corp.internal', 'https://app.corp.internal', true],
  ];
  for (const [entry, origin, expected] of above) {
    it(`${entry} ${expected ? 'allows' : 'does not allow'} ${origin}${expected ? '' : ', a site registered under a public suffix below it'}`, () => {
      assert.equal(publicSuffixWildcard(normalizeAllowedOrigin(entry)!), undefined);
      assert.equal(originAllowed(origin, [entry]), expected);
    });
  }
  it('an own wildcard beside one over a suffix still allows its subdomains', () => {
    assert.equal(originAllowed('https://shop.example.co.uk', ['https://*.co.uk', 'https://*.example.co.uk']), true);
  });
});
