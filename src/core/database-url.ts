/** True for a `postgres://` or `postgresql://` URL: `--db` then names a PostgreSQL database, not a file. */
export function isPostgresUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value);
}

/** The URL with its password hidden: what logs and messages show. */
export function redactDatabaseUrl(value: string): string {
  if (!isPostgresUrl(value)) return value;
  try {
    const url = new URL(value);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return value.replace(/\/\/([^:/@]*):[^@]*@/, '//$1:***@');
  }
}
