/** Where a command writes; tests capture it, the executable passes process.stdout/stderr. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** True when stderr is a terminal (progress bars are drawn only then). */
  errIsTTY: boolean;
  errStream?: NodeJS.WritableStream;
  outStream?: NodeJS.WritableStream;
  /** Standard input, for commands that read a document from `-`. */
  inStream?: NodeJS.ReadableStream;
}

export function printJson(io: CliIo, value: unknown): void {
  io.out(`${JSON.stringify(value, null, 2)}\n`);
}

/** Renders rows as an aligned plain-text table. */
export function printTable(io: CliIo, headers: string[], rows: string[][]): void {
  const widths = headers.map((header, i) => Math.max(header.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd();
  io.out(`${[line(headers), ...rows.map(line)].join('\n')}\n`);
}
