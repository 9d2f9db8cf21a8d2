/** The named columns of a drizzle table, for a select of only those (both engines' list pages). */
export function columnsOf<T extends object, K extends keyof T>(table: T, names: readonly K[]): Pick<T, K> {
  const columns = {} as Pick<T, K>;
  for (const name of names) columns[name] = table[name];
  return columns;
}
