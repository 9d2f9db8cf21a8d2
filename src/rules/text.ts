import type { Transform } from './dialect';

const COMBINING_MARKS = /[\u0300-\u036f]/g;
const SPACES = /\s+/g;
const WORD_START = /(^|[\s\-'’(/])(\p{L})/gu;

/** A text compared case- and accent-insensitively: trimmed, inner white space single, marks removed, lower case. */
export function foldText(text: string): string {
  return text.trim().replace(SPACES, ' ').normalize('NFD').replace(COMBINING_MARKS, '').toLowerCase();
}

/** One function applying a field's transforms in the order declared (undefined: none declared). */
export function compileTransforms(transforms: readonly Transform[] | undefined): ((text: string) => string) | undefined {
  if (transforms === undefined || transforms.length === 0) return undefined;
  const steps = transforms.map((name) => TRANSFORM_STEPS[name]);
  if (steps.length === 1) return steps[0];
  return (text) => {
    for (const step of steps) text = step(text);
    return text;
  };
}

const TRANSFORM_STEPS: Record<Transform, (text: string) => string> = {
  trim: (text) => text.trim(),
  collapseWhitespace: (text) => text.replace(SPACES, ' ').trim(),
  lowercase: (text) => text.toLowerCase(),
  uppercase: (text) => text.toUpperCase(),
  titlecase: (text) => text.toLowerCase().replace(WORD_START, (_, before: string, letter: string) => before + letter.toUpperCase()),
};
