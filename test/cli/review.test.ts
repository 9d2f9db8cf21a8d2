import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createCliHarness, type CliHarness } from '../helpers/cli';

// `importd imports approve|reject` and `imports list --status` (docs/cli.md, docs/templates.md "Review").

let cli: CliHarness;
let file: string;
/** Loads the CSV into the `staff` template; returns the import as `--json` prints it. */
const load = async () => {
  const { code, stdout, stderr } = await cli.run('import', file, '--env', 'ops', '--template', 'staff', '--json');
  assert.equal(code, 0, stderr);
  return JSON.parse(stdout);
};
const reviewStatus = async (id: string) => (await cli.sql<{ s: string }>('SELECT review_status AS s FROM imports WHERE id = ?', id))[0]!.s;

before(async () => {
  cli = await createCliHarness();
  assert.equal((await cli.run('env', 'create', 'ops')).code, 0);
  assert.equal((await cli.run('account', 'create', 'other')).code, 0);
  file = path.join(cli.dir, 'staff.csv');
  writeFileSync(file, 'name\r\nAda\r\nGrace\r\n');
  // The template is created by the first load (without review), then made to require it.
  assert.equal((await load()).status, 'completed');
  await cli.sql(`UPDATE templates SET schema = '{"key":"staff","review":"required"}' WHERE key = 'staff'`);
});
after(() => cli.close());

describe('importd imports approve | reject', () => {
  it('loads into a template that requires review as pending, and lists and shows the status', async () => {
    const pending = await load();
    assert.equal(pending.status, 'pending_review');
    const listed = await cli.run('imports', 'list', '--status', 'pending_review', '--json');
    assert.equal(listed.code, 0, listed.stderr);
    const page = JSON.parse(listed.stdout);
    assert.deepEqual(page.data.map((i: any) => [i.id, i.status]), [[pending.id, 'pending_review']]);
    assert.equal(page.pagination.filters.status, 'pending_review');
    const table = await cli.run('imports', 'list');
    assert.match(table.stdout, /^ID\s+STATUS\s+CREATED/);
    assert.match(table.stdout, new RegExp(`${pending.id}\\s+pending_review`));
    const shown = await cli.run('imports', 'show', pending.id);
    assert.match(shown.stdout, /^status:\s+pending_review$/m);
  });

  it('says a plain load is pending review', async () => {
    const { code, stdout } = await cli.run('import', file, '--env', 'ops', '--template', 'staff');
    assert.equal(code, 0);
    assert.match(stdout, /^import \S+ created: 2 rows \(template \S+\), pending review\n$/);
  });

  it('approves with a reason (--json: the detail), then refuses a second decision with exit 4', async () => {
    const pending = await load();
    const approved = await cli.run('imports', 'approve', pending.id, '--reason', 'looks right', '--json');
    assert.equal(approved.code, 0, approved.stderr);
    const detail = JSON.parse(approved.stdout);
    assert.equal(detail.status, 'completed');
    assert.equal(detail.reviewReason, 'looks right');
    assert.equal(await reviewStatus(pending.id), 'completed');
    for (const verb of ['approve', 'reject']) {
      const again = await cli.run('imports', verb, pending.id);
      assert.equal(again.code, 4);
      assert.match(again.stderr, /^error \[import_not_pending\]: the import is completed/);
    }
    assert.equal(await reviewStatus(pending.id), 'completed');
  });

  it('rejects, printing one line', async () => {
    const pending = await load();
    const rejected = await cli.run('imports', 'reject', pending.id, '--reason', 'duplicate upload');
    assert.equal(rejected.code, 0, rejected.stderr);
    assert.match(rejected.stdout, new RegExp(`^import ${pending.id} rejected at \\d{4}-\\d\\d-\\d\\dT`));
    const stored = (await cli.sql('SELECT review_status, review_reason FROM imports WHERE id = ?', pending.id))[0];
    assert.deepEqual({ ...stored }, { review_status: 'rejected', review_reason: 'duplicate upload' });
    const listed = JSON.parse((await cli.run('imports', 'list', '--status', 'rejected', '--json')).stdout);
    assert.deepEqual(listed.data.map((i: any) => i.id), [pending.id]);
  });

  it('refuses bad input in the flags’ terms, an unknown import and another account’s, deciding nothing', async () => {
    const pending = await load();
    const cases: [string[], number, RegExp][] = [
      [['imports', 'approve', pending.id, '--reason', ''], 2, /^error \[validation_failed\]: --reason: must be 1 to 1000 characters/],
      [['imports', 'reject', pending.id, '--reason', 'x'.repeat(1001)], 2, /--reason: must be 1 to 1000 characters/],
      [['imports', 'approve', pending.id, '--reason', 'a\u0007b'], 2, /--reason: must not contain control characters/],
      [['imports', 'approve', '01a00000-0000-7000-8000-000000000000'], 3, /^error \[not_found\]: import not found/],
      [['imports', 'approve', pending.id, '--account', 'other'], 3, /^error \[not_found\]: import not found/],
      [['imports', 'approve'], 2, /missing required argument/],
      [['imports', 'list', '--status', 'waiting'], 2, /^error \[validation_failed\]: --status: /],
    ];
    for (const [args, code, message] of cases) {
      const result = await cli.run(...args);
      assert.equal(result.code, code, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, message, args.join(' '));
    }
    assert.equal(await reviewStatus(pending.id), 'pending_review');
  });
});
