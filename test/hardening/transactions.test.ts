import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(full) : entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** The text of each drizzle `db.transaction(...)` call in `text`, parentheses balanced. */
function transactionCalls(text: string): string[] {
  const calls: string[] = [];
  for (let at = text.indexOf('db.transaction('); at !== -1; at = text.indexOf('db.transaction(', at + 1)) {
    let depth = 0;
    let end = at + 'db.transaction'.length;
    for (; end < text.length; end++) {
      if (text[end] === '(') depth++;
      else if (text[end] === ')' && --depth === 0) break;
    }
    calls.push(text.slice(at, end + 1));
  }
  return calls;
}

describe('transactions', () => {
  it('every drizzle transaction in src/ states its locking: WRITE_TRANSACTION (BEGIN IMMEDIATE) or an explicit behavior', () => {
    // A deferred transaction that reads then writes fails at once with SQLITE_BUSY when another process
    // wrote meanwhile (the backup test caught this with `importd serve` and a second writer). Raw
    // better-sqlite3 transactions (the row writer's) begin with a write, which waits for the lock.
    let seen = 0;
    // PostgreSQL's transactions (src/db/postgres) take row locks as they go: the concern is SQLite's.
    for (const file of sourceFiles('src').filter((file) => !file.startsWith(path.join('src', 'db', 'postgres')))) {
      for (const call of transactionCalls(readFileSync(file, 'utf8'))) {
        seen++;
        assert.match(call, /WRITE_TRANSACTION|behavior:/, `${file}: ${call.slice(0, 120)}`);
      }
    }
    assert.ok(seen >= 4);
  });
});
