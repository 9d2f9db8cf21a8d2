import { SingleBar } from 'cli-progress';
import { formatBytes } from '../lib/format-bytes';

/** Share of the file read, in human sizes, and rows so far, on stderr (drawn only when it is a terminal). */
export function importProgressBar(stream: NodeJS.WritableStream, totalBytes: number) {
  const bar = new SingleBar({
    stream,
    format: 'importing [{bar}] {percentage}% | {read} of {size} | {rows} rows | eta {eta_formatted}',
    hideCursor: true,
  });
  const size = formatBytes(totalBytes);
  let rows = 0;
  let stopped = false;
  bar.start(totalBytes, 0, { read: formatBytes(0), size, rows: 0 });
  return {
    read: (bytes: number) => bar.update(bytes, { read: formatBytes(bytes), rows }),
    rows: (count: number) => void (rows += count),
    /** Draws the last state and ends the bar's line, so what is printed next starts on a line of its own. */
    stop(bytes: number) {
      if (stopped) return;
      stopped = true;
      bar.update(bytes, { read: formatBytes(bytes), rows });
      bar.stop();
    },
  };
}
