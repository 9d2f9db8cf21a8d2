import { lstatSync, statSync, type Stats } from 'node:fs';

/** The file's stats, or undefined when there is nothing at that path (or it cannot be reached). */
export function statIfExists(file: string): Stats | undefined {
  return statSync(file, { throwIfNoEntry: false }) ?? undefined;
}

/** Like statIfExists, about the path itself: a symbolic link is reported as one, not followed. */
export function lstatIfExists(file: string): Stats | undefined {
  return lstatSync(file, { throwIfNoEntry: false }) ?? undefined;
}
