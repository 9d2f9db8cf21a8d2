import { z } from 'zod';
import { storedText } from '../stored-text';
import { ColorSet } from './colors';
import { THEME_EXAMPLE } from './example';

const between = (min: number, max: number) =>
  z.number().min(min, `must be a number from ${min} to ${max}`).max(max, `must be a number from ${min} to ${max}`);

export const ThemeRadius = z.strictObject({ selector: between(0, 100), field: between(0, 100), box: between(0, 100) });
export const ThemeSizes = z.strictObject({ selector: between(0, 100), field: between(0, 100) });
export const ThemeEffects = z.strictObject({ border: between(0, 100), depth: between(0, 1), noise: between(0, 1) });

/** The colors, radius, sizes and effects of a theme: the same members in and out. */
const themeStyle = { lightColors: ColorSet, darkColors: ColorSet, radius: ThemeRadius, sizes: ThemeSizes, effects: ThemeEffects };

/**
 * POST and PUT /themes: all seven members required. Unknown top-level members (such as `id` or `createdAt`
 * echoed back from a GET) are ignored; inside the nested objects they are rejected.
 */
export const ThemeInput = z.object({
  name: storedText(z.string().min(1, 'must be 1 to 100 characters').max(100, 'must be 1 to 100 characters')),
  description: storedText(z.string().max(1000, 'must be at most 1000 characters')),
  ...themeStyle,
}).meta({ id: 'ThemeInput', examples: [THEME_EXAMPLE] });
export type ThemeInput = z.input<typeof ThemeInput>;

export const Theme = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  ...themeStyle,
  createdAt: z.string(),
  updatedAt: z.string(),
}).meta({ id: 'Theme' });
export type Theme = z.infer<typeof Theme>;
