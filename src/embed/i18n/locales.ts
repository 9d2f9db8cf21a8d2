import { de } from './de';
import { en, type Messages } from './en';
import { es } from './es';
import { fr } from './fr';

/**
 * The tables by language subtag. A contributor adds a locale as one file beside these (a copy of en.ts,
 * translated; typed `Messages`, so a missing or misspelt key fails the typecheck) and one line here.
 */
export const LOCALES: Record<string, Messages | undefined> = { en, de, fr, es };
