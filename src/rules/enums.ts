import { optionTexts } from './dialect';
import { foldText } from './text';

/**
 * An enum field's options, read once: a cell that is an option's value, label or one of its alternatives
 * (compared case- and accent-insensitively: `Cote d'Ivoire` answers to `Côte d’Ivoire` only if listed, but
 * `cote d'ivoire` answers to `Côte d'Ivoire`) stands for that option's canonical value.
 */
export function compileEnum(options: readonly { value: string; label?: string; alternatives?: string[] }[]): (text: string) => string | undefined {
  const exact = new Map<string, string>();
  const folded = new Map<string, string>();
  for (const option of options) {
    for (const text of optionTexts(option)) {
      if (!exact.has(text)) exact.set(text, option.value);
      const key = foldText(text);
      if (!folded.has(key)) folded.set(key, option.value);
    }
  }
  // Most cells are already canonical: one lookup, no folding (which allocates).
  return (text) => exact.get(text) ?? folded.get(foldText(text));
}
