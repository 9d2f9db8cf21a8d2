import { COLOR_MEMBERS } from './colors';

// Every accepted colour form, in both cases: the OpenAPI document carries this example, and its test checks
// that validating clients accept what the server accepts (issue 41: a flag in the patterns broke them all).
const LIGHT = ['#ffffff', '#1F2937', '#4f46e5cc', '#FFF', 'rgb(99 102 241)', 'RGBA(255, 255, 255, 0.9)', 'hsl(160 84% 39%)', 'HSLA(0, 0%, 100%, 1)', 'oklch(0.7 0.15 250)', 'OKLCH(0.98 0.01 250 / 50%)', '#0ea5e9'];
const DARK = ['#111827', '#F9FAFB', 'rgb(129 140 248)', 'hsl(240deg 10% 4%)', 'Hsl(0.5TURN 50% 50%)', 'oklch(0.55 0.2 27)', '#f87171', 'rgba(0, 0, 0, .5)', '#22c55e', 'hsl(200GRAD 60% 40%)', 'rgb(10% 20% 30%)'];
const set = (forms: string[]) => Object.fromEntries(COLOR_MEMBERS.map((member, i) => [member, forms[i % forms.length]!]));

export const THEME_EXAMPLE = {
  name: 'Acme',
  description: 'Brand colours for the importer',
  lightColors: set(LIGHT),
  darkColors: set(DARK),
  radius: { selector: 8, field: 6, box: 12 },
  sizes: { selector: 4, field: 4 },
  effects: { border: 1, depth: 0.5, noise: 0 },
};
