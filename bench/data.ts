/** Ten mixed-type columns, like a real contacts/orders import. */
export function makeRows(count: number, offset = 0): Record<string, string | number | boolean | null>[] {
  const rows = new Array(count);
  for (let i = 0; i < count; i++) {
    const n = offset + i;
    rows[i] = {
      id: n,
      first_name: `First${n % 997}`,
      last_name: `Last "${n % 113}"`,
      email: `user${n}@example.com`,
      amount: Math.round(n * 137.5) / 100,
      active: n % 3 !== 0,
      city: n % 2 ? 'Springfield' : 'Zürich, CH',
      postal_code: String(10000 + (n % 89999)),
      signed_up: `2024-0${1 + (n % 9)}-1${n % 10}`,
      note: n % 5 === 0 ? null : 'multi\nline, with "quotes"',
    };
  }
  return rows;
}

export const META = {
  schemaKey: 'bench-contacts',
  sdkVersion: '1.0.0',
  source: { kind: 'upload' },
  file: { name: 'contacts.csv', sizeBytes: 1, formattedSize: '1 B' },
  environment: { platform: 'web' },
};

export const ORIGINAL_SCHEMA = {
  key: 'bench-contacts',
  fields: ['id', 'first_name', 'last_name', 'email', 'amount', 'active', 'city', 'postal_code', 'signed_up', 'note'].map((key) => ({ key })),
};

export function importBody(count: number): string {
  return JSON.stringify({ rows: makeRows(count), meta: META, originalSchema: ORIGINAL_SCHEMA });
}

/**
 * How many times each POST figure is taken, importd and its floor in turns (medians): 11 for the small import,
 * the machine's noise being a larger share of it; 5 for the large one (3 until the fifteenth round, when one
 * run's median of 3 measured 1.37 where the runs beside it measured 1.01-1.09).
 */
export const postRuns = (count: number, large: number) => (count === large ? 5 : 11);
