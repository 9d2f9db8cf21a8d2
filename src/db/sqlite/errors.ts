import { UniqueViolationError } from '../store/store';

/** Runs a write, turning SQLite's UNIQUE constraint failure into the store's engine-neutral error. */
export function uniqueChecked<T>(write: () => T): T {
  try {
    return write();
  } catch (error) {
    if ((error as { code?: unknown }).code === 'SQLITE_CONSTRAINT_UNIQUE') throw new UniqueViolationError(error);
    throw error;
  }
}
