// A page's size is written into its statement, one named statement per size, not passed as a parameter: with
// `LIMIT $n` PostgreSQL estimates a tenth of the table's matching rows, so the generic plan never looks cheaper
// than a custom one and every execution was planned anew (0.15-0.2 ms for the plain list, more than running
// it). With the size written in, each connection plans a size's statement five times, then keeps its generic
// plan (test/db/postgres-query-plans.test.ts checks pg_prepared_statements). Sizes are bounded, and so are the
// statements a connection keeps.

export interface NamedStatement {
  name: string;
  text: string;
}

const statements = new Map<string, NamedStatement>();

/** The statement `<name>-<limit>`, `text` with the limit written in; `limit` an integer from 0 to `max`. */
export function sizedStatement(name: string, limit: number, max: number, text: (limit: string) => string): NamedStatement {
  const key = `${name}-${limit}`;
  let statement = statements.get(key);
  if (!statement) {
    if (!Number.isInteger(limit) || limit < 0 || limit > max) throw new RangeError(`${name}: a limit of ${limit}`);
    statement = { name: key, text: text(String(limit)) };
    statements.set(key, statement);
  }
  return statement;
}
