import type { Charset } from '../decode';
import type { CsvRequest, CsvResponse } from './csv-worker';

export type ParsedCsv = Extract<CsvResponse, { ok: true }>;

let workerUrl: string | undefined;

/** Parses a CSV file in a Web Worker made from the bundled worker code (no second file to serve). */
export async function parseCsv(file: Blob, charset?: Charset): Promise<ParsedCsv> {
  workerUrl ??= URL.createObjectURL(new Blob([IMPORTD_CSV_WORKER], { type: 'text/javascript' }));
  const worker = new Worker(workerUrl);
  const bytes = await file.arrayBuffer();
  try {
    return await new Promise<ParsedCsv>((resolve, reject) => {
      worker.onmessage = (event: MessageEvent<CsvResponse>) => (event.data.ok ? resolve(event.data) : reject(new Error(event.data.message)));
      worker.onerror = (event) => reject(new Error(event.message || 'the file could not be read'));
      const request: CsvRequest = charset ? { bytes, charset } : { bytes };
      worker.postMessage(request, [bytes]);
    });
  } finally {
    worker.terminate();
  }
}
