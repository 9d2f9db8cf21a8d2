/** Every text the importer shows, in one table (a translation replaces this object). */
export const STRINGS = {
  title: 'Import a spreadsheet',
  pick: 'Choose a CSV or Excel file',
  drop: 'or drop it here',
  reading: 'Reading the file…',
  sheet: 'Sheet',
  chooseSheet: 'Use this sheet',
  charset: 'Text encoding',
  charsetHint: 'Accents look wrong? Pick the encoding the file was saved in.',
  detected: (rows: number, columns: number, delimiter: string) =>
    `${count(rows, 'row')}, ${count(columns, 'column')}${delimiter ? `, separated by ${delimiterName(delimiter)}` : ''}`,
  mapTitle: 'Match your columns to the fields',
  notImported: '— not imported —',
  confirmMapping: 'Confirm columns',
  reviewTitle: 'Check the values',
  allValid: (rows: number) => (rows === 1 ? 'The row is valid.' : `All ${rows} rows are valid.`),
  invalid: (cells: number) => `${cells} ${cells === 1 ? 'cell needs' : 'cells need'} fixing before the import.`,
  moreInvalid: (more: number) => `…and ${more} more; fix these first.`,
  cellLabel: (row: number, field: string) => `Row ${row}, ${field}`,
  problems: {
    required: 'required',
    number: 'not a number',
    boolean: 'not yes/no',
    date: 'not a date (YYYY-MM-DD)',
    email: 'not an e-mail address',
    pattern: 'wrong format',
    enum: 'not one of the allowed values',
  },
  back: 'Back',
  submit: (rows: number) => `Import ${count(rows, 'row')}`,
  uploading: 'Sending…',
  done: (rows: number) => `Imported ${count(rows, 'row')}.`,
  another: 'Import another file',
  errorTitle: 'Something went wrong',
  requestId: 'Request id',
  unreachable: (server: string, origin: string) =>
    `Could not reach importd at ${server}. If it is running, this page's origin (${origin}) is probably not in the ` +
    `allowed origins of the Public Key: ask the operator to add it (importd env origins).`,
  unsupported: 'Only .csv, .tsv, .txt and .xlsx files can be imported.',
  empty: 'The file has no rows.',
  tooLarge: (limit: string) => `The file is larger than ${limit}.`,
  missingAttributes: 'The importer needs the server, public-key, session-token and template-id attributes.',
} as const;

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function delimiterName(delimiter: string): string {
  return { ',': 'commas', ';': 'semicolons', '\t': 'tabs', '|': 'pipes' }[delimiter] ?? JSON.stringify(delimiter);
}
