import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { newId } from '../../src/core/ids';
import { leaseEnd } from '../../src/services/leases';
import { createUpload, sweepUploads, uploadFile, uploadsDir } from '../../src/services/uploads';
import { testClock } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';

const CSV = 'name,age\nAda,36\nGrace,45\n';

describe('uploads: a node killed while processing', () => {
  const clock = testClock();
  const { h, env } = useHarness({ clock });
  /** A received upload of CSV, its processing claimed by a node that then died. */
  const abandoned = async () => {
    const id = newId();
    const caller = { principal: { kind: 'secret' as const, keyId: 'k', accountId: env.accountId, environmentId: env.environmentId } };
    const metadata = { filename: 'people.csv', templateKey: 'people' };
    await createUpload(h.ctx, caller, { id, sizeBytes: CSV.length, metadata });
    mkdirSync(uploadsDir(h.ctx), { recursive: true });
    writeFileSync(uploadFile(h.ctx, id), CSV);
    assert.ok(await h.ctx.store.uploads.claim(id, 'dead-node', clock().toISOString(), leaseEnd(h.ctx)));
    return id;
  };
  const importsOf = async (id: string) => await h.sql<{ id: string; row_count: number }>('SELECT id, row_count FROM imports WHERE file_id = ?', id);

  it('leaves the upload alone while its lease holds, then another node picks it up from the file', async () => {
    const id = await abandoned();
    assert.deepEqual(await sweepUploads(h.ctx), { resumed: 0, expired: 0, removed: 0 });
    clock.advance(h.ctx.config.leaseSeconds * 1000 + 1);
    assert.equal((await sweepUploads(h.ctx)).resumed, 1);
    const upload = await h.ctx.store.uploads.find(id);
    assert.equal(upload?.status, 'completed');
    assert.equal(upload?.rowsProcessed, 2);
    const made = await importsOf(id);
    assert.equal(made.length, 1);
    assert.equal(upload?.importId, made[0]!.id);
    assert.equal(Number(made[0]!.row_count), 2);
  });

  it('writes the import once: a node that died after completing the import but before the upload is found out', async () => {
    const id = await abandoned();
    clock.advance(h.ctx.config.leaseSeconds * 1000 + 1);
    await sweepUploads(h.ctx);
    const [first] = await importsOf(id);
    // As if the node had died between the import's completion and the upload's.
    await h.sql("UPDATE uploads SET status = 'processing', import_id = NULL, lease_node = 'dead-node', lease_until = ? WHERE id = ?", clock().toISOString(), id);
    clock.advance(1);
    assert.equal((await sweepUploads(h.ctx)).resumed, 1);
    assert.deepEqual(await importsOf(id), [first]);
    assert.equal((await h.ctx.store.uploads.find(id))?.importId, first!.id);
  });
});
