import { parse as parseCssColor } from 'culori';
import { z } from 'zod';

// CSS color strings (DESIGN.md "Templates and themes"). The SDK writes these values into CSS, so only these
// exact shapes pass: hex, rgb()/rgba(), hsl()/hsla() and oklch() with numeric, percent or angle (hue)
// arguments. No keywords, var(), url(), expression(), comments, quotes, semicolons or braces can get through.
// The shape is this module's; whether the arguments make a valid CSS Color 4 value (an angle only as a hue,
// no legacy rgb() mixing numbers and percentages...) is culori's parser's call.

// Written without the `i` flag: the pattern is also the OpenAPI document's (JSON Schema patterns are ECMA-262
// regexes with no flags, and a flag would reach validating clients as literal text), so case-insensitivity is
// spelled out as character classes.
const anyCase = (word: string) => [...word].map((ch) => `[${ch.toUpperCase()}${ch}]`).join('');
const UNIT = `(?:%|${['deg', 'grad', 'rad', 'turn'].map(anyCase).join('|')})`;
const NUM = String.raw`[+-]?(?:\d{1,10}(?:\.\d{1,10})?|\.\d{1,10})${UNIT}?`;
const COMMA_ARGS = String.raw`\( *${NUM} *, *${NUM} *, *${NUM} *(?:, *${NUM} *)?\)`;
const SPACE_ARGS = String.raw`\( *${NUM} +${NUM} +${NUM} *(?:\/ *${NUM} *)?\)`;
const HEX = '[0-9a-fA-F]';
const COLOR = new RegExp(
  String.raw`^(?:#(?:${HEX}{3,4}|${HEX}{6}|${HEX}{8})|(?:${anyCase('rgb')}|${anyCase('hsl')})${anyCase('a')}?(?:${COMMA_ARGS}|${SPACE_ARGS})|${anyCase('oklch')}${SPACE_ARGS})$`,
);

export const CssColor = z
  .string()
  .max(100, 'must be at most 100 characters')
  .regex(COLOR, 'must be a CSS color: #rgb, #rgba, #rrggbb, #rrggbbaa, rgb()/rgba(), hsl()/hsla() or oklch() with numeric arguments')
  // CSS function names are case-insensitive; culori reads lower case only.
  .refine((value) => parseCssColor(value.toLowerCase()) !== undefined, 'is not a valid CSS color (check the arguments of the color function)');

/** The 22 members of a color set, exactly (spec "Theme"). */
export const COLOR_MEMBERS = [
  'base',
  'baseContent',
  'primary',
  'primaryContent',
  'secondary',
  'secondaryContent',
  'accent',
  'accentContent',
  'neutral',
  'neutralContent',
  'info',
  'infoBg',
  'infoContent',
  'success',
  'successBg',
  'successContent',
  'warning',
  'warningBg',
  'warningContent',
  'error',
  'errorBg',
  'errorContent',
] as const;

export const ColorSet = z.strictObject(
  Object.fromEntries(COLOR_MEMBERS.map((member) => [member, CssColor])) as Record<(typeof COLOR_MEMBERS)[number], typeof CssColor>,
);
export type ColorSet = z.infer<typeof ColorSet>;
