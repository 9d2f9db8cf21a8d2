import { UniqueViolationError } from '../store/store';

/** PostgreSQL's SQLSTATE for a unique constraint violated. */
const UNIQUE_VIOLATION = '23505';

/** Runs a write, turning PostgreSQL's unique violation (drizzle wraps the driver's error as its cause) into the store's error. */
export async function uniqueChecked<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const code = (error as { code?: unknown }).code ?? ((error as { cause?: { code?: unknown } }).cause?.code);
    if (code === UNIQUE_VIOLATION) throw new UniqueViolationError(error);
    throw error;
  }
}
