/** Where a command writes; tests capture it, the executable passes process.stdout/stderr. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** True when stderr is a terminal (progress bars are drawn only then). */
  errIsTTY: boolean;
  /** True when stdout is a terminal (`serve` then also prints one human line with its URL). */
  outIsTTY?: boolean;
  errStream?: NodeJS.WritableStream;
  outStream?: NodeJS.WritableStream;
  /** Standard input, for commands that read a document from `-`. */
  inStream?: NodeJS.ReadableStream;
}

export function printJson(io: CliIo, value: unknown): void {
  io.out(`${JSON.stringify(value, null, 2)}\n`);
}

// Cells hold text clients sent (labels, names, emails): a line break or an escape sequence in one must not
// forge a row or drive the operator's terminal.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
const visible = (cell: string) => cell.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** Renders rows as an aligned plain-text table, control characters in cells written as `\uXXXX`. */
export function printTable(io: CliIo, headers: string[], table: string[][]): void {
  const rows = table.map((row) => row.map(visible));
  const widths = headers.map((header, i) => Math.max(header.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd();
  io.out(`${[line(headers), ...rows.map(line)].join('\n')}\n`);
}
