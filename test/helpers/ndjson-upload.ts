import { request } from 'node:http';

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/**
 * An NDJSON import streamed to `url` (POST /v1/imports) that keeps sending rows, a slice every 10 ms, until
 * the server answers or `end()` is called: the upload stays in the middle of its COPY for as long as a test
 * needs (a pause of 200 ms would commit its batch and hand the writer connection back).
 */
export function pumpImport(url: string, secretKey: string, tag: string) {
  const upload = request(`${url}/v1/imports`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${secretKey}`, 'Content-Type': 'application/x-ndjson' },
  });
  let sent = 0;
  const answer = new Promise<Answer>((resolve, reject) => {
    upload.once('response', (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.once('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: text ? JSON.parse(text) : undefined }));
      response.once('error', reject);
    });
    upload.once('error', reject);
  });
  upload.write(`${JSON.stringify({ meta: { schemaKey: tag }, originalSchema: { key: tag } })}\n`);
  const pump = setInterval(() => {
    let slice = '';
    for (let i = 0; i < 200; i++, sent++) slice += `${JSON.stringify({ tag, index: sent, name: `row ${sent} of ${tag}` })}\n`;
    upload.write(slice);
  }, 10);
  const stop = () => clearInterval(pump);
  void answer.then(stop, stop);
  return {
    answer,
    /** Rows sent so far. */
    sent: () => sent,
    /** Stops sending and ends the body: the import completes (201) unless it failed meanwhile. */
    end() {
      stop();
      upload.end();
      return answer;
    },
    /** Stops sending and drops the connection. */
    abandon() {
      stop();
      upload.destroy();
    },
  };
}
