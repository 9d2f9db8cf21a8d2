import type { Charset } from '../decode';
import { Rows, type PackedSlice } from '../rows';
import type { ReadFile, ReadRequest, ReadResponse } from './read-worker';

let workerUrl: string | undefined;

/**
 * Reads a CSV or XLSX file in a Web Worker made from the bundled worker code (no second file to serve): the
 * worker reads the file's bytes too, and its rows arrive a packed slice per message (read-worker.ts, rows.ts). `choices`
 * replace the detected charset and delimiter of a CSV (the end-user's choice). `headBytes`: a CSV larger than
 * this is read only that far (the rows the mapping needs; the server reads the rest).
 */
export async function readFile(file: Blob, kind: ReadRequest['kind'], choices: { charset?: Charset; delimiter?: string } = {}, headBytes = Infinity): Promise<ReadFile> {
  workerUrl ??= URL.createObjectURL(new Blob([IMPORTD_READ_WORKER], { type: 'text/javascript' }));
  const worker = new Worker(workerUrl);
  const slices: { width: number; packed: PackedSlice[] }[] = [];
  try {
    return await new Promise<ReadFile>((resolve, reject) => {
      worker.onmessage = ({ data }: MessageEvent<ReadResponse>) => {
        if (data.type === 'rows') {
          (slices[data.sheet] ??= { width: data.width, packed: [] }).packed.push(data.slice);
        } else if (data.type === 'done') {
          const sheets = data.names.map((name, index) => ({ name, rows: Rows.packed(slices[index]?.packed ?? [], slices[index]?.width ?? 0) }));
          resolve({ sheets, ...(data.csv && { csv: data.csv }) });
        } else {
          reject(new Error(data.message));
        }
      };
      worker.onerror = (event) => reject(new Error(event.message || 'the file could not be read'));
      const request: ReadRequest = { kind, file, headBytes, ...choices };
      worker.postMessage(request);
    });
  } finally {
    worker.terminate();
  }
}
