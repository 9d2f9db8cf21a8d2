export { ColorSet, COLOR_MEMBERS, CssColor } from './colors';
export * from './schemas';
export { createTheme, getTheme, setTheme, updateTheme } from './themes';
export { openThemeStream } from './theme-stream';
export type { ThemeSubscription } from './theme-events';
