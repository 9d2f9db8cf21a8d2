import { COLOR_MEMBERS } from '../../src/services/themes';

/** A valid theme body: every color member set, every number inside its range. */
export function validTheme(overrides: Record<string, unknown> = {}): Record<string, any> {
  const colors = (value: string) => Object.fromEntries(COLOR_MEMBERS.map((member) => [member, value]));
  return {
    name: 'Brand',
    description: 'Our colors',
    lightColors: colors('#ffffff'),
    darkColors: colors('oklch(0.3 0.05 250)'),
    radius: { selector: 8, field: 4, box: 12 },
    sizes: { selector: 4, field: 4 },
    effects: { border: 1, depth: 0.5, noise: 0 },
    ...overrides,
  };
}

/** A deep copy with `path` (dotted) set to `value`, or removed when `value` is `undefined`. */
export function withPath<T extends Record<string, any>>(body: T, path: string, value: unknown): T {
  const copy = structuredClone(body);
  const parts = path.split('.');
  let target: any = copy;
  for (const part of parts.slice(0, -1)) target = target[part];
  const last = parts[parts.length - 1]!;
  if (value === undefined) delete target[last];
  else target[last] = value;
  return copy;
}
