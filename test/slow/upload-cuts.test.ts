import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { CONTACT_COLUMNS, contactsCsv } from '../helpers/contacts-csv';
import { json } from '../helpers/harness';
import { useLiveHarness } from '../helpers/use-harness';
import { settledUpload, tusUploadWithCuts, uploadIdOf } from '../helpers/tus';

// About 50 MB (430 000 rows): large enough for several chunks on each side of each cut, small enough for CI.
const BYTES = 50e6;

describe('a 50 MB CSV uploaded through two cut connections', { timeout: 600_000 }, () => {
  const { h, env, server } = useLiveHarness();

  it('resumes after each cut and becomes an import whose CSV export is the file, byte for byte', async () => {
    const auth = { Authorization: `Bearer ${env.secretKey}` };
    const created = await fetch(`${server.url}/v1/templates`, { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ key: 'contacts', schema: { columns: CONTACT_COLUMNS } }) });
    assert.equal(created.status, 201, await created.clone().text());
    const csv = contactsCsv(BYTES);
    const file = Buffer.concat([...csv.pieces]);
    const offsets: number[] = [];
    const url = await tusUploadWithCuts(server.url, () => file, file.length, [0.3, 0.7], {
      headers: auth,
      chunkSize: 4 * 1024 ** 2,
      metadata: { filename: 'contacts.csv', templateKey: 'contacts' },
      // Where each leg starts: 0, then the offsets HEAD answered after each cut.
      onAfterResponse: (request, response) => {
        if (request.getMethod() === 'HEAD') offsets.push(Number(response.getHeader('Upload-Offset')));
      },
    });
    assert.equal(offsets.length, 2, 'each cut is followed by a HEAD before the upload resumes');
    assert.ok(offsets[0]! > 0 && offsets[0]! < offsets[1]! && offsets[1]! < file.length, `resumed from ${offsets.join(', ')}`);
    const view = await settledUpload(server.url, uploadIdOf(url), auth, 300_000);
    assert.equal(view.status, 'completed', JSON.stringify(view));
    assert.equal(view.rowsProcessed, csv.rows());
    const exported = await fetch(`${server.url}/v1/imports/${view.importId}/export?format=csv`, { headers: auth });
    assert.equal(exported.status, 200);
    const hash = createHash('sha256');
    for await (const chunk of exported.body as AsyncIterable<Uint8Array>) hash.update(chunk);
    assert.equal(hash.digest('hex'), createHash('sha256').update(file).digest('hex'));
    const detail = await json(await fetch(`${server.url}/v1/imports/${view.importId}`, { headers: auth }));
    assert.equal(detail.file.sizeBytes, file.length);
    assert.ok(existsSync(path.join(h.ctx.config.uploads.filesDir, 'uploads', view.id)));
  });
});
