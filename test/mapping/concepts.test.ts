import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeHeader, englishForms, guessWord } from '../../src/services/mapping/concepts';

/** Concept ids (and qualifier ids) a label resolves to. */
function conceptsOf(label: string): string[] {
  const f = analyzeHeader(label);
  return [...f.units.filter((u) => u.concept >= 0).map((u) => u.token), ...[...f.qualifiers.values()].flatMap((q) => [...q])].sort();
}

describe('synonyms in each language', () => {
  const cases: Record<string, [string, string[]][]> = {
    en: [['Given name', ['first_name']], ['Surname', ['last_name']], ['ZIP code', ['postal_code']], ['Cell phone', ['mobile']], ['Organisation', ['company']]],
    de: [['Vorname', ['first_name']], ['Nachname', ['last_name']], ['PLZ', ['postal_code']], ['Handy', ['mobile']], ['Firma', ['company']], ['Geburtsdatum', ['birth_date']]],
    fr: [['Prénom', ['first_name']], ['Nom de famille', ['last_name']], ['Code postal', ['postal_code']], ['Société', ['company']], ['Ville', ['city']]],
    es: [['Apellidos', ['last_name']], ['Código postal', ['postal_code']], ['Correo electrónico', ['email']], ['Empresa', ['company']], ['Cantidad', ['quantity']]],
    it: [['Cognome', ['last_name']], ['CAP', ['postal_code']], ['Cellulare', ['mobile']], ['Ragione sociale', ['company']], ['Partita IVA', ['vat_id']]],
    pt: [['Nome próprio', ['first_name']], ['Apelido', ['last_name']], ['Código Postal', ['postal_code']], ['Telemóvel', ['mobile']], ['Morada', ['address']]],
    nl: [['Voornaam', ['first_name']], ['Achternaam', ['last_name']], ['Postcode', ['postal_code']], ['Woonplaats', ['city']], ['Btw-nummer', ['vat_id']]],
    // Chinese covers the common concepts only, in traditional and simplified forms.
    zh: [['電子郵件', ['email']], ['电子邮件', ['email']], ['訂單日期', ['date', 'order']], ['库存', ['stock']], ['價格', ['price']]],
  };
  for (const [lang, list] of Object.entries(cases))
    it(lang, () => {
      for (const [label, expected] of list) assert.deepEqual(conceptsOf(label), expected, label);
    });
});

describe('abbreviations, compounds, word order and typos', () => {
  const cases: [string, string[]][] = [
    ['DOB', ['birth_date']],
    ['Fraction of orders', ['order', 'rate']],
    ['customerid', ['customer', 'id']],
    ['INVOICENO', ['invoice', 'number']],
    ['valueuom', ['amount', 'unit']],
    ['Candidate', []],
    ['Qty Shipped', ['quantity', 'shipped']],
    ['Tel.', ['phone']],
    ['Addr.', ['address']],
    ['Acct #', ['account', 'number']],
    ['Art.-Nr.', ['sku']],
    ['USt-IdNr.', ['vat_id']],
    ['Lieferadresse PLZ', ['postal_code', 'shipping']],
    ['Rechnungsadresse Straße', ['billing', 'street']],
    ['Versandkosten', ['cost', 'shipping']],
    ['Waehrung', ['currency']],
    ['Name, First', ['first_name']],
    ['firstname', ['first_name']],
    ['Frist Name', ['first_name']],
    ['Emial', ['email']],
    ['Price incl. VAT', ['gross', 'price']],
  ];
  for (const [label, expected] of cases) it(label, () => assert.deepEqual(conceptsOf(label), expected));

  it('reads an English word as itself, not as a typo or compound of vocabulary words', () => {
    assert.deepEqual(conceptsOf('pathologic stage'), ['stage']); // not the French "pathologie" (diagnosis)
    assert.deepEqual(conceptsOf('tumor diameter'), []); // not the Spanish "dia" + "meter"
    assert.deepEqual(conceptsOf('aliquots'), []);
    for (const [word, lemma] of [['stopped', 'stop'], ['pairs', 'pair'], ['studies', 'study'], ['tested', 'test']])
      assert.ok(englishForms(word!).includes(lemma!), word);
    assert.equal(guessWord('pathologic')?.length, 1); // the reading the dictionary prevents
  });

  it('reads an English inflection through its dictionary form when the vocabulary has that form', () => {
    assert.deepEqual(conceptsOf('Invoiced'), conceptsOf('Invoice'));
    assert.deepEqual(conceptsOf('Addresses'), conceptsOf('Address'));
    assert.notDeepEqual(conceptsOf('Invoice'), []);
    assert.deepEqual(conceptsOf('Assigned at'), []); // "assigne" is no English word, so not the French "assigné à"
  });

  it('keeps "Created by" and "Created at" apart', () => {
    assert.deepEqual(conceptsOf('Created by'), ['created_by']);
    assert.deepEqual(conceptsOf('Created at'), ['created_at']);
    assert.deepEqual(conceptsOf('Angelegt von'), ['created_by']);
  });

  it('derives the expected value kind, dates winning over flags', () => {
    assert.equal(analyzeHeader('E-Mail-Adresse').expectedKind, 'email');
    assert.equal(analyzeHeader('Opt-in date').expectedKind, 'date');
  });
});
