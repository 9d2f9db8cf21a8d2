import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { matchHeaders } from '../../src/services/mapping/match-headers';
import type { HeaderItem } from '../../src/services/mapping/schemas';

const items = (labels: string[]): HeaderItem[] => labels.map((label) => ({ key: label, label }));
/** schema label -> file label of the offline answer. */
function pairs(schema: string[] | HeaderItem[], file: string[] | HeaderItem[]): Record<string, string> {
  const s = typeof schema[0] === 'string' ? items(schema as string[]) : (schema as HeaderItem[]);
  const f = typeof file[0] === 'string' ? items(file as string[]) : (file as HeaderItem[]);
  const { mappings } = matchHeaders({ schemaHeaders: s, fileHeaders: f });
  return Object.fromEntries(Object.entries(mappings).map(([k, v]) => [k, v.fileKey]));
}

describe('matchHeaders', () => {
  it('maps synonyms across languages and formats', () => {
    assert.deepEqual(
      pairs(['First name', 'Last name', 'Email', 'Postal code', 'Date of birth'], ['E-Mail-Adresse', 'PLZ', 'Nachname', 'Geb.-Datum', 'Vorname']),
      { 'First name': 'Vorname', 'Last name': 'Nachname', Email: 'E-Mail-Adresse', 'Postal code': 'PLZ', 'Date of birth': 'Geb.-Datum' },
    );
    assert.deepEqual(pairs(['Quantity', 'Unit price'], ['unitPriceNet', 'qty']), { Quantity: 'qty', 'Unit price': 'unitPriceNet' });
  });

  it('maps common Chinese headers, traditional and simplified', () => {
    assert.deepEqual(pairs(['Email', 'Phone', 'Order date', 'Quantity', 'Notes'], ['訂單日期', '电子邮件', '數量', '电话', '客户']), {
      Email: '电子邮件',
      Phone: '电话',
      'Order date': '訂單日期',
      Quantity: '數量',
    });
  });

  it('does not take "Email consent" for "Email"', () => {
    assert.deepEqual(pairs(['Email'], ['Email consent']), {});
    assert.deepEqual(pairs(['Email', 'Consent'], ['Email consent', 'E-mail']), { Email: 'E-mail', Consent: 'Email consent' });
  });

  it('does not take a shipping ZIP, or a plain ZIP beside one, for a billing ZIP', () => {
    assert.deepEqual(pairs(['Billing ZIP'], ['Shipping ZIP']), {});
    assert.deepEqual(pairs(['Billing ZIP', 'ZIP'], ['Shipping ZIP', 'ZIP code']), { ZIP: 'ZIP code' });
    assert.deepEqual(pairs(['Billing ZIP', 'Shipping ZIP'], ['Lieferadresse PLZ', 'Rechnungsadresse PLZ']), {
      'Billing ZIP': 'Rechnungsadresse PLZ',
      'Shipping ZIP': 'Lieferadresse PLZ',
    });
  });

  it('keeps "Created by" and "Created at" apart', () => {
    assert.deepEqual(pairs(['Created at'], ['Created by']), {});
    assert.deepEqual(pairs(['Created by', 'Created at'], ['createdAt', 'createdBy']), { 'Created by': 'createdBy', 'Created at': 'createdAt' });
  });

  it('assigns one-to-one by total score, not greedily', () => {
    // Greedy gives "Address" the best pair ("Street address") and leaves "Street" with a worse one.
    const result = pairs(['Address', 'Street'], ['Street address', 'Address line 2']);
    assert.deepEqual(result, { Street: 'Street address', Address: 'Address line 2' });
    const used = Object.values(pairs(['Phone', 'Mobile', 'Fax'], ['Telephone', 'Tel. (mobile)', 'Telefax']));
    assert.equal(new Set(used).size, used.length);
  });

  it('leaves a schema key unmatched below the threshold', () => {
    assert.deepEqual(pairs(['Country', 'Email'], ['Colour', 'Email address']), { Email: 'Email address' });
    const input = { schemaHeaders: items(['Mobile']), fileHeaders: items(['Phone', 'Telephone']) };
    assert.equal(matchHeaders(input).mappings.Mobile?.fileKey, 'Phone');
    const strict = matchHeaders(input, { threshold: 0.95, uncertainMargin: 0.5 });
    assert.deepEqual(strict.mappings, {});
    assert.deepEqual(strict.uncertain.map((u) => [u.schemaKey, u.chosen, u.candidates[0]?.fileKey]), [['Mobile', null, 'Phone']]);
  });

  it('demands more of a pair when one list is much longer than the other', () => {
    const schema = ['Order date', 'Ship date', 'Delivery date', 'Invoice date', 'Due date', 'Start date', 'End date', 'Birth date', 'Hire date',
      'Payment date', 'Order number', 'Invoice number', 'Customer name', 'Company', 'Street', 'City', 'Postal code', 'Country', 'Phone', 'Email',
      'Quantity', 'Unit price', 'Discount', 'Tax rate', 'Currency', 'Total amount', 'Status', 'Notes', 'SKU', 'Brand'];
    // 30 headers against 2: "Price total" looks like "Unit price" (0.65) and like "Total amount"; neither is it.
    assert.deepEqual(pairs(schema, ['Price total', 'E-mail']), { Email: 'E-mail' });
    assert.deepEqual(pairs(schema, ['Street name', 'E-mail']), { Street: 'Street name', Email: 'E-mail' });
  });

  it('keeps a header with the same name as exactly one header of the other list out of the trade-offs', () => {
    // The largest total would give "Currency" to "Converted Currency" so that "Settlement currency" takes "Currency";
    // "Settlement currency" keeps the column left to it, as the clear best of what is open (below the threshold).
    const currency = matchHeaders({ schemaHeaders: items(['Currency', 'Settlement currency']), fileHeaders: items(['Converted Currency', 'Currency']) });
    assert.equal(currency.mappings.Currency?.fileKey, 'Currency');
    assert.equal(currency.mappings['Settlement currency']?.fileKey, 'Converted Currency');
    assert.ok(currency.mappings['Settlement currency']!.confidence < 0.5);
    // Not when samples that contradict the name bring the pair below the threshold.
    const phone = matchHeaders(
      {
        schemaHeaders: [{ key: 'phone', label: 'Phone', samples: ['+49 30 1234567', '+1 415 555 0100'] }],
        fileHeaders: [
          { key: 'a', label: 'Phone', samples: ['anna@example.com', 'bob@example.org'] },
          { key: 'b', label: 'Phone number', samples: ['+33 1 23 45 67 89', '+44 20 7946 0000'] },
          { key: 'c', label: 'Telephone', samples: ['+33 1 98 76 54 32', '+44 20 7946 0001'] },
        ],
      },
      { threshold: 0.7 },
    );
    assert.ok(['b', 'c'].includes(phone.mappings.phone?.fileKey ?? ''));
  });

  it('takes a pair below the threshold when it is the clear best of both its headers', () => {
    const schema = ['Shipment weight', 'Parcel count'];
    const weight = matchHeaders({ schemaHeaders: items(schema), fileHeaders: items(['Gewicht der Sendung', 'Anzahl Pakete']) });
    assert.equal(weight.mappings['Shipment weight']?.fileKey, 'Gewicht der Sendung');
    assert.ok(weight.mappings['Shipment weight']!.confidence < 0.5);
    assert.deepEqual(weight.uncertain.map((u) => [u.schemaKey, u.chosen, u.candidates[0]?.fileKey]), [['Shipment weight', 'Gewicht der Sendung', 'Gewicht der Sendung']]);
    // A rival close to it on either side: no clear best, left unmatched.
    assert.deepEqual(pairs(schema, ['Gewicht der Sendung', 'Gewicht des Pakets', 'Anzahl Pakete']), { 'Parcel count': 'Anzahl Pakete' });
    assert.deepEqual(pairs(['Shipment weight', 'Weight of the parcel'], ['Gewicht der Sendung']), {});
  });

  it('judges a clear best pair only against the headers the assignment left open', () => {
    // "Shipment weight" scores higher on "Weight" than on "Gewicht der Sendung", but "Weight" took "Weight".
    const { mappings } = matchHeaders({ schemaHeaders: items(['Shipment weight', 'Weight']), fileHeaders: items(['Weight', 'Gewicht der Sendung']) });
    assert.equal(mappings['Shipment weight']?.fileKey, 'Gewicht der Sendung');
    assert.ok(mappings['Shipment weight']!.confidence < 0.5);
    assert.equal(mappings.Weight?.fileKey, 'Weight');
    // Names alone far below the threshold, when nothing else left open comes close to either header.
    const orders = matchHeaders({ schemaHeaders: items(['Order date', 'Order total']), fileHeaders: items(['Created at', 'Total']) });
    assert.equal(orders.mappings['Order date']?.fileKey, 'Created at');
    assert.ok(orders.mappings['Order date']!.confidence < 0.3);
    // An open rival still counts: two unmatched schema headers as close to the column leave it unmatched.
    assert.deepEqual(pairs(['Shipment weight', 'Weight of the parcel', 'Weight'], ['Weight', 'Gewicht der Sendung']), { Weight: 'Weight' });
  });

  it('uses samples: a flag column goes to the flag of the schema, not to a list of categories', () => {
    const schema: HeaderItem[] = [
      { key: 'invasion_type', label: 'Invasion type', samples: ['Extramural', 'Intramural', 'Macro'] },
      { key: 'invasion_present', label: 'Invasion present', samples: ['Yes', 'No', 'Unknown'] },
      { key: 'ward', label: 'Ward' },
    ];
    const file: HeaderItem[] = [
      { key: 'Invasion', label: 'Invasion', samples: ['Yes', 'No'] },
      { key: 'Bed', label: 'Bed' },
    ];
    assert.deepEqual(pairs(schema, file), { invasion_present: 'Invasion' });
  });

  it('uses samples: values decide between look-alike names', () => {
    const schema: HeaderItem[] = [{ key: 'contact', label: 'Contact', samples: ['jane@example.com'] }];
    const file: HeaderItem[] = [
      { key: 'c1', label: 'Contact 1', samples: ['+1 555 0101', '+1 555 0102'] },
      { key: 'c2', label: 'Contact 2', samples: ['a@example.org', 'b@example.org'] },
    ];
    assert.deepEqual(pairs(schema, file), { contact: 'c2' });
  });

  it('counts a shared sample value by its rarity: a value under one header a side pairs them, "Unknown" under many does not', () => {
    const schema: HeaderItem[] = [
      { key: 'histology', label: 'Histology', samples: ['Serous carcinoma', 'Unknown'] },
      { key: 'vital', label: 'Vital status', samples: ['Alive', 'Dead', 'Unknown'] },
      { key: 'grade', label: 'Grade', samples: ['G1', 'G2', 'Unknown'] },
      { key: 'race', label: 'Race', samples: ['Asian', 'White', 'Unknown'] },
    ];
    const file: HeaderItem[] = [
      { key: 'site', label: 'Site', samples: ['ovary', 'unknown'] },
      { key: 'subtype', label: 'Subtype', samples: ['serous carcinoma', 'clear cell carcinoma'] },
      { key: 'status', label: 'Vital status', samples: ['alive', 'unknown'] },
      { key: 'g', label: 'Grade', samples: ['g3', 'unknown'] },
    ];
    const { mappings } = matchHeaders({ schemaHeaders: schema, fileHeaders: file });
    assert.deepEqual(
      Object.fromEntries(Object.entries(mappings).filter(([k]) => k !== 'race').map(([k, v]) => [k, v.fileKey])),
      { histology: 'subtype', vital: 'status', grade: 'g' },
    );
    // "Race" and "Site" are what is left: at most a weak leftover pair (agreeing kinds, a common value), never a confident one.
    assert.ok((mappings.race?.confidence ?? 0) < 0.35);
  });

  it('reads descriptions by their rare words: shared specific words pair unrelated names, a word in every description does not', () => {
    const schema: HeaderItem[] = [
      { key: 'ref', label: 'Account reference', description: 'Unique identifier of the customer in the billing system' },
      { key: 'signup', label: 'Signup', description: 'Date on which the customer first registered' },
      { key: 'tier', label: 'Tier', description: 'Loyalty programme level of the customer: bronze, silver or gold' },
    ];
    const file: HeaderItem[] = [
      { key: 'reg', label: 'REGDT', description: 'When the customer registered' },
      { key: 'lp', label: 'LP', description: 'Loyalty programme level of the customer' },
      { key: 'note', label: 'NOTE', description: 'Free text about the customer' },
    ];
    assert.deepEqual(pairs(schema, file), { signup: 'reg', tier: 'lp' });
  });

  it('prefers, between look-alike names, the text column whose values share a word with the example values', () => {
    const schema: HeaderItem[] = [
      { key: 'status', label: 'Status', samples: ['Approved', 'Rescinded'] },
      // One example value says too little: "Jane" against "Lucía" is no clash.
      { key: 'name', label: 'Name', samples: ['Jane'] },
    ];
    const file: HeaderItem[] = [
      { key: 's1', label: 'Status 1', samples: ['pass', 'fail'] },
      { key: 's2', label: 'Status 2', samples: ['approved by the board', 'pending'] },
      { key: 'n', label: 'Name', samples: ['Lucía', 'Javier'] },
    ];
    assert.deepEqual(pairs(schema, file), { status: 's2', name: 'n' });
  });

  it('charges the description merges to the budget, also when only one side has descriptions', () => {
    // The cost a call is refused at: a budget of 0 is past the estimate made before the headers are analysed,
    // a budget of that estimate is past it only when the exact cost is higher.
    const refusedAt = (input: Parameters<typeof matchHeaders>[0], budget: number): number | undefined => {
      try {
        matchHeaders(input, { budget });
        return undefined;
      } catch (error) {
        return Number(/cost (\d+)/.exec((error as Error).message)?.[1]);
      }
    };
    const cost = (input: Parameters<typeof matchHeaders>[0]) => {
      const estimate = refusedAt(input, 0)!;
      return refusedAt(input, estimate) ?? estimate;
    };
    const plain = items(['Order date', 'Customer', 'Total']);
    const described = plain.map((h) => ({ ...h, description: 'The value as the shop system exported it for the monthly accounting report' }));
    const file = items(['Datum', 'Kunde', 'Summe']);
    assert.ok(cost({ schemaHeaders: described, fileHeaders: file }) > cost({ schemaHeaders: plain, fileHeaders: file }));
  });

  it('does not veto integer codes against text labels: a coded column and its labelled copy', () => {
    const { mappings } = matchHeaders({
      schemaHeaders: [{ key: 'smoker', label: 'Smoking status', samples: ['1', '2', '3'] }, { key: 'age', label: 'Age', samples: ['34', '51'] }],
      fileHeaders: [
        { key: 'a', label: 'Smoking', samples: ['current smoker', 'never smoked', 'former smoker'] },
        { key: 'b', label: 'Age at diagnosis', samples: ['40', '62'] },
      ],
    });
    assert.deepEqual(Object.fromEntries(Object.entries(mappings).map(([k, v]) => [k, v.fileKey])), { smoker: 'a', age: 'b' });
  });

  it('uses the key when it names the column better than the label', () => {
    assert.deepEqual(pairs([{ key: 'postal_code', label: 'Code (5 digits)' }], ['City', 'Postleitzahl']), { postal_code: 'Postleitzahl' });
  });

  it('reads a short header as the initials of exactly one header of the other list, below an exact match', () => {
    const { mappings } = matchHeaders({ schemaHeaders: items(['Order date', 'Country code', 'Email']), fileHeaders: items(['OD', 'CC', 'E-mail']) });
    assert.deepEqual(
      Object.fromEntries(Object.entries(mappings).map(([k, v]) => [k, v.fileKey])),
      { 'Order date': 'OD', 'Country code': 'CC', Email: 'E-mail' },
    );
    assert.ok(mappings['Order date']!.confidence < 0.9);
    // Two headers with the same initials: no guess.
    assert.deepEqual(pairs(['Order date', 'Other date'], ['OD']), {});
  });

  it('reads a word of two or three letters as an abbreviation of a word of the other header whose letters it keeps in order', () => {
    assert.deepEqual(pairs(['Supplier', 'Warehouse', 'Description'], ['SPL', 'WHS', 'Descr']), { Supplier: 'SPL', Warehouse: 'WHS', Description: 'Descr' });
    assert.equal(pairs(['Province', 'City', 'Phone'], ['PRV', 'City', 'Phone']).Province, 'PRV');
    // Another first letter, or the letters out of order: no reading.
    assert.deepEqual(pairs(['Supplier', 'Warehouse'], ['PSL', 'HWS']), {});
  });

  it('lets a word shared by many headers of the two lists weigh less than a rare one', () => {
    const schema = ['Case tumor stage', 'Case tumor grade', 'Case tumor site', 'Case tumor type', 'Case necrosis'];
    assert.equal(pairs(schema, ['Tumor necrosis', 'Stage'])['Case necrosis'], 'Tumor necrosis');
  });

  it('returns {} for empty inputs and is deterministic', () => {
    assert.deepEqual(matchHeaders({ schemaHeaders: [], fileHeaders: [] }), { mappings: {}, uncertain: [] });
    assert.deepEqual(pairs(['Email'], []), {});
    const input = { schemaHeaders: items(['Name', 'Full name', 'Email']), fileHeaders: items(['Name', 'E-mail', 'Nom complet']) };
    assert.deepEqual(matchHeaders(input), matchHeaders(input));
  });

  it('bounds the work on large inputs', () => {
    const many = Array.from({ length: 600 }, (_, i) => `Custom field ${i}`);
    const result = matchHeaders({ schemaHeaders: items(many), fileHeaders: items([...many].reverse()) });
    assert.equal(result.mappings['Custom field 42']?.fileKey, 'Custom field 42');
    const used = Object.values(result.mappings).map((m) => m.fileKey);
    assert.equal(new Set(used).size, used.length);
  });
});
