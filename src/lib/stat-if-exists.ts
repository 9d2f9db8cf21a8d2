import { lstatSync, statSync, type Stats } from 'node:fs';

/** The file's stats, or undefined when nothing can be reached at that path (missing, or under a file). */
export function statIfExists(file: string): Stats | undefined {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}

/** Like statIfExists, about the path itself: a symbolic link is reported as one, not followed. */
export function lstatIfExists(file: string): Stats | undefined {
  try {
    return lstatSync(file);
  } catch {
    return undefined;
  }
}
