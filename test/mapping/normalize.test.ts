import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normalizeRules } from '../../src/services/mapping/concepts';
import { foldText, normalizeHeader, splitWords, stem } from '../../src/services/mapping/normalize';

describe('foldText', () => {
  it('strips accents and maps letters NFKD leaves alone', () => {
    assert.equal(foldText('Prénom Straße Øre Æble Código Nº'), 'Prenom Strasse Ore AEble Codigo No');
  });
  it('keeps plain ASCII untouched', () => {
    assert.equal(foldText('First Name'), 'First Name');
  });
});

describe('splitWords', () => {
  const cases: [string, string[]][] = [
    ['firstName', ['first', 'name']],
    ['HasOptedOutOfEmail', ['has', 'opted', 'out', 'of', 'email']],
    ['EMAIL_ADDR', ['email', 'addr']],
    ['ship-postal-code', ['ship', 'postal', 'code']],
    ['HTMLParser', ['html', 'parser']],
    ['Address1', ['address', '1']],
    ['Name, Last', ['name', 'last']],
    ['Weight [kg]', ['weight', 'kg']],
    ['文章標題', ['文', '章', '標', '題']],
  ];
  for (const [input, expected] of cases) it(`splits ${input}`, () => assert.deepEqual(splitWords(input), expected));
});

describe('stem', () => {
  it('removes plural endings but keeps ss/us/is words', () => {
    assert.deepEqual(['categories', 'prices', 'address', 'status', 'pais', 'qty'].map(stem), ['category', 'price', 'address', 'status', 'pais', 'qty']);
  });
});

describe('normalizeHeader', () => {
  it('extracts units from brackets and numbers, drops stop words', () => {
    const n = normalizeHeader('Length of parcel (cm) 2', normalizeRules);
    assert.deepEqual(n.tokens, ['length', 'parcel']);
    assert.deepEqual(n.units, ['cm']);
    assert.deepEqual(n.numbers, ['2']);
  });
  it('treats short units as words outside brackets', () => {
    assert.deepEqual(normalizeHeader('Money in', normalizeRules).tokens, ['money', 'in']);
    assert.deepEqual(normalizeHeader('Duration (min)', normalizeRules).units, ['min']);
  });
  it('expands abbreviations and symbols', () => {
    const cases: [string, string[]][] = [
      ['DOB', ['date', 'birth']],
      ['Qty', ['quantity']],
      ['Tel.', ['telephone']],
      ['Addr 1', ['address']],
      ['Order No.', ['order', 'number']],
      ['Order #', ['order', 'number']],
      ['# of employees', ['count', 'employees']],
      ['VAT %', ['vat', 'percent']],
      ['Cust. Acct', ['customer', 'account']],
    ];
    for (const [label, tokens] of cases) assert.deepEqual(normalizeHeader(label, normalizeRules).tokens, tokens, label);
  });
  it('gives a folded, lower-cased text for character similarity', () => {
    assert.equal(normalizeHeader('Téléphone_Mobile', normalizeRules).text, 'telephone mobile');
  });
});
