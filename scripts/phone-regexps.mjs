// libphonenumber-js compiles a RegExp from its metadata's pattern text on every call: four of up to 640 characters
// for each US number read, half of a phone field's cost (~8 µs a number, ~4 µs with these compiled once). This
// esbuild plugin makes the three helpers on the parse-and-validate path keep each RegExp per pattern text: the same
// library and the same patterns, compiled once. It also takes the library's es6-modern/ build (the same sources,
// built by its author for modern engines) in place of its es6/ one, whose Babel helpers (_objectSpread2,
// _classCallCheck, ...) were a third of a reading. Every bundle that carries the phone rule uses it (the server,
// its workers, the executable and the browser importer); tsx runs the library as published, which answers the same.
// The patterns come from the library's own metadata, so the memo is bounded by it, and none of the RegExps is
// global or sticky: `test`, `exec`, `search` and `match` keep no state in them between calls.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

// Keyed by the metadata's own pattern string, whose hash V8 keeps, not by the RegExp's source: that is a new
// string of up to 640 characters each call, to hash again. Without `before`, the pattern is the source as it is
// (`new RegExp(undefined)` matches everything, `new RegExp('undefined')` does not).
const MEMO = `
var compiledRegExps = new Map();
function compiledRegExp(pattern, before, after) {
  var compiled = compiledRegExps.get(pattern);
  if (compiled === undefined) {
    compiled = new RegExp(before === undefined ? pattern : before + pattern + after);
    compiledRegExps.set(pattern, compiled);
  }
  return compiled;
}
`;

/**
 * Each helper of es6-modern/ as published in libphonenumber-js 1.13.16 (its SHA-256), its one RegExp built per call and what takes
 * its place (each helper has its own memo, so one pattern string stands for one RegExp source). Another
 * content fails the build: an upgrade must re-read the helper and say again what is safe to compile once.
 */
const HELPERS = {
  'es6-modern/helpers/matchesEntirely.js': {
    sha256: 'bce77c378bca3efc8f10281f5c7401c8663b07fea7a96848a85a1c14129a815d',
    perCall: "new RegExp('^(?:' + regularExpressionText + ')$')",
    once: "compiledRegExp(regularExpressionText, '^(?:', ')$')",
  },
  'es6-modern/helpers/stripIddPrefix.js': {
    sha256: '3b2f1f1f26a66f5a200ec1a0ca81fcf5904e721a54dd7254453fc0c025b773b9',
    perCall: 'new RegExp(metadata.IDDPrefix())',
    once: 'compiledRegExp(metadata.IDDPrefix())',
  },
  'es6-modern/helpers/extractNationalNumberFromPossiblyIncompleteNumber.js': {
    sha256: 'b4f86035aa58ac76f81fa6c5735ff2fb0f1897efe5a5c62fbeec6bc6b40c81d0',
    perCall: "new RegExp('^(?:' + metadata.numberingPlan.nationalPrefixForParsing() + ')')",
    once: "compiledRegExp(metadata.numberingPlan.nationalPrefixForParsing(), '^(?:', ')')",
  },
};

const PACKAGE = `${path.sep}libphonenumber-js${path.sep}`;
const PUBLISHED = `${PACKAGE}es6${path.sep}`;
const MODERN = `${PACKAGE}es6-modern${path.sep}`;

/** The helper's source with its per-call RegExp compiled once per pattern; throws if `source` is not the expected file. */
export function compileOnce(helper, source) {
  const expected = HELPERS[helper];
  const sha256 = createHash('sha256').update(source).digest('hex');
  if (sha256 !== expected.sha256) {
    throw new Error(
      `libphonenumber-js's ${helper} is not the one scripts/phone-regexps.mjs was written for (SHA-256 ${sha256}): ` +
        're-read it, check its RegExps are still built from metadata only and not global, then update HELPERS',
    );
  }
  return `${source.replace(expected.perCall, () => expected.once)}\n${MEMO}`;
}

/**
 * The esbuild plugin; a bundle that takes in libphonenumber-js without each of HELPERS, or with any file of its
 * es6/ build (an import the redirect missed would mix the two builds), fails.
 */
export const phoneRegExpsOnce = {
  name: 'phone-regexps-once',
  setup(bundle) {
    let bundlesLibrary = false;
    const compiled = new Set();
    // The package's entry points (index.js, core/, min/, ...) import its es6/ build by relative paths. Resolved
    // by esbuild again, so the package's `sideEffects: false` still lets unused modules drop out.
    bundle.onResolve({ filter: /^\.\.?\// }, (args) => {
      const full = path.resolve(args.resolveDir, args.path);
      if (!full.includes(PUBLISHED)) return undefined;
      return bundle.resolve(full.replace(PUBLISHED, () => MODERN), { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir });
    });
    bundle.onLoad({ filter: /[\\/]libphonenumber-js[\\/]/ }, (args) => {
      bundlesLibrary = true;
      const helper = args.path.slice(args.path.lastIndexOf(PACKAGE) + PACKAGE.length).split(path.sep).join('/');
      if (helper.startsWith('es6/')) return { errors: [{ text: `libphonenumber-js's ${helper} is bundled: scripts/phone-regexps.mjs sends its es6/ build to es6-modern/` }] };
      if (!(helper in HELPERS)) return undefined;
      compiled.add(helper);
      return { contents: compileOnce(helper, readFileSync(args.path, 'utf8')), loader: 'js', resolveDir: path.dirname(args.path) };
    });
    bundle.onEnd(() => {
      const missed = Object.keys(HELPERS).filter((helper) => !compiled.has(helper));
      if (!bundlesLibrary || missed.length === 0) return undefined;
      return { errors: [{ text: `libphonenumber-js is bundled without ${missed.join(', ')}: scripts/phone-regexps.mjs no longer applies` }] };
    });
  },
};
