/** The ten columns of a generated contacts CSV. */
export const CONTACT_COLUMNS = ['id', 'first_name', 'last_name', 'email', 'amount', 'active', 'city', 'postal_code', 'signed_up', 'note'];

/**
 * A CSV of ten columns, at least `bytes` bytes, in pieces of 10 000 rows, written as importd's CSV export writes
 * it (RFC 4180, CRLF, cells quoted where needed, empty cells): the export of its import must be these very bytes.
 * `rows()` says how many were generated so far.
 */
export function contactsCsv(bytes: number): { pieces: Iterable<Buffer>; rows(): number } {
  let rows = 0;
  function* pieces() {
    let written = 0;
    let piece = `${CONTACT_COLUMNS.join(',')}\r\n`;
    while (written < bytes) {
      for (let i = 0; i < 10_000; i++, rows++) {
        const n = rows;
        const note = n % 5 === 0 ? '' : '"multi\nline, with ""quotes"""';
        piece += `${n},First${n % 997},"Last ""${n % 113}""",user${n}@example.com,${Math.round(n * 137.5) / 100},${n % 3 !== 0},${n % 2 ? 'Springfield' : '"Zürich, CH"'},${10000 + (n % 89999)},2024-0${1 + (n % 9)}-1${n % 10},${note}\r\n`;
      }
      const chunk = Buffer.from(piece);
      written += chunk.length;
      piece = '';
      yield chunk;
    }
  }
  return { pieces: pieces(), rows: () => rows };
}
