/**
 * Splits a byte stream into UTF-8 lines (without their `\n` or `\r\n`), holding at most one partial line
 * and one chunk in memory, and yields the lines each chunk completes as one array: a caller loops over them
 * without a promise per line, which a million-line import would feel. Empty lines are skipped. Throws when a
 * single line exceeds `maxLineBytes`.
 */
export async function* readLineBatches(chunks: AsyncIterable<Uint8Array>, maxLineBytes = 16 * 1024 * 1024): AsyncGenerator<string[]> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let pending = '';
  for await (const chunk of chunks) {
    pending += decoder.decode(chunk, { stream: true });
    const lines: string[] = [];
    let start = 0;
    for (let end = pending.indexOf('\n'); end !== -1; end = pending.indexOf('\n', start)) {
      const line = pending.slice(start, end > start && pending.charCodeAt(end - 1) === 13 ? end - 1 : end);
      start = end + 1;
      if (line.length > 0) lines.push(line);
    }
    pending = pending.slice(start);
    if (pending.length > maxLineBytes) throw new LineTooLongError(maxLineBytes);
    if (lines.length > 0) yield lines;
  }
  pending += decoder.decode();
  const last = pending.endsWith('\r') ? pending.slice(0, -1) : pending;
  if (last.length > 0) yield [last];
}

export class LineTooLongError extends Error {
  override name = 'LineTooLongError';
  constructor(readonly maxLineBytes: number) {
    super(`a line is longer than ${maxLineBytes} bytes`);
  }
}
