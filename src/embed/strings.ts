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
  // The review grid (src/embed/grid): messages of invalid cells are the server's own (src/rules).
  cellLabel: (row: number, field: string) => `Row ${row}, ${field}`,
  checking: 'Checking the values…',
  invalidRows: (rows: number) => `${count(rows, 'row')} ${rows === 1 ? 'has' : 'have'} problems: fix them, or skip them.`,
  skipping: (rows: number) => `${count(rows, 'row')} with problems will be skipped (not imported).`,
  onlyProblems: 'Only rows with problems',
  skipInvalid: 'Skip invalid rows',
  findReplace: 'Find and replace',
  replaceColumn: 'Column',
  find: 'Find',
  replaceWith: 'Replace with',
  replaceAll: 'Replace in column',
  replaced: (cells: number) => `Replaced in ${count(cells, 'cell')}.`,
  sameValue: (cells: number, field: string, text: string) => `${count(cells, 'other cell')} of ${field} ${cells === 1 ? 'holds' : 'hold'} “${text}”.`,
  applyToAll: (text: string) => `Change them all to “${text}”`,
  storedAs: (text: string) => `→ stored as ${text}`,
  emptyCell: '(empty)',
} as const;

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function delimiterName(delimiter: string): string {
  return { ',': 'commas', ';': 'semicolons', '\t': 'tabs', '|': 'pipes' }[delimiter] ?? JSON.stringify(delimiter);
}
