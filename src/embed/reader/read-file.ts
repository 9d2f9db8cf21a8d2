import type { Charset } from '../decode';
import type { ReadFile, ReadRequest, ReadResponse } from './read-worker';

let workerUrl: string | undefined;

/**
 * Reads a CSV or XLSX file in a Web Worker made from the bundled worker code (no second file to serve).
 * `choices` replace the detected charset and delimiter of a CSV (the end-user's choice). `headBytes`: a CSV
 * larger than this is read only that far (the rows the mapping needs; the server reads the rest).
 */
export async function readFile(file: Blob, kind: ReadRequest['kind'], choices: { charset?: Charset; delimiter?: string } = {}, headBytes = Infinity): Promise<ReadFile> {
  workerUrl ??= URL.createObjectURL(new Blob([IMPORTD_READ_WORKER], { type: 'text/javascript' }));
  const worker = new Worker(workerUrl);
  const partial = kind === 'csv' && file.size > headBytes;
  const bytes = await (partial ? file.slice(0, headBytes) : file).arrayBuffer();
  try {
    return await new Promise<ReadFile>((resolve, reject) => {
      worker.onmessage = (event: MessageEvent<ReadResponse>) => (event.data.ok ? resolve(event.data) : reject(new Error(event.data.message)));
      worker.onerror = (event) => reject(new Error(event.message || 'the file could not be read'));
      const request: ReadRequest = { kind, bytes, partial, ...choices };
      worker.postMessage(request, [bytes]);
    });
  } finally {
    worker.terminate();
  }
}
