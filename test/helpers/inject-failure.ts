import type { Harness } from './harness';

/**
 * Makes the database itself fail a statement (a trigger raising `message` before `event` on `table` when
 * `when` holds, NEW./OLD. as in either engine's triggers): a storage failure part-way through a unit of
 * work, on either engine. Returns the function that removes it.
 */
export async function injectFailure(
  h: Harness,
  name: string,
  event: 'INSERT' | 'DELETE',
  table: string,
  when: string,
  message = 'injected failure',
): Promise<() => Promise<void>> {
  if (h.engine === 'sqlite') {
    await h.sql(`CREATE TRIGGER ${name} BEFORE ${event} ON ${table} WHEN ${when} BEGIN SELECT RAISE(ABORT, '${message}'); END`);
    return async () => void (await h.sql(`DROP TRIGGER ${name}`));
  }
  const row = event === 'INSERT' ? 'NEW' : 'OLD';
  await h.sql(
    `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF ${when} THEN RAISE EXCEPTION '${message}'; END IF; RETURN ${row}; END $$`,
  );
  await h.sql(`CREATE TRIGGER ${name} BEFORE ${event} ON ${table} FOR EACH ROW EXECUTE FUNCTION ${name}()`);
  return async () => {
    await h.sql(`DROP TRIGGER ${name} ON ${table}`);
    await h.sql(`DROP FUNCTION ${name}()`);
  };
}
