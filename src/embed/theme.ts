import { urlOf, type Credentials } from './api';

/** The members of GET /v1/themes the importer reads (the server validates every color). */
export interface Theme {
  lightColors: Record<string, string>;
  darkColors: Record<string, string>;
  radius: Record<string, number>;
  sizes: Record<string, number>;
  effects: Record<string, number>;
}

const DARK = '(prefers-color-scheme: dark)';
const kebab = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

/**
 * Writes the theme as custom properties on the element: `--importd-<member>` for each color of the scheme the
 * page prefers (light or dark), `--importd-radius-<member>` / `--importd-size-<member>` / `--importd-border`
 * in px, `--importd-depth` and `--importd-noise` as numbers.
 */
export function applyTheme(host: HTMLElement, theme: Theme): void {
  const colors = matchMedia(DARK).matches ? theme.darkColors : theme.lightColors;
  for (const [member, value] of Object.entries(colors)) host.style.setProperty(`--importd-${kebab(member)}`, value);
  for (const [member, value] of Object.entries(theme.radius)) host.style.setProperty(`--importd-radius-${kebab(member)}`, `${value}px`);
  for (const [member, value] of Object.entries(theme.sizes)) host.style.setProperty(`--importd-size-${kebab(member)}`, `${value}px`);
  host.style.setProperty('--importd-border', `${theme.effects.border ?? 1}px`);
  host.style.setProperty('--importd-depth', String(theme.effects.depth ?? 0));
  host.style.setProperty('--importd-noise', String(theme.effects.noise ?? 0));
}

/** Re-applies the last theme when the page switches between light and dark. */
export function onSchemeChange(listener: () => void, signal: AbortSignal): void {
  matchMedia(DARK).addEventListener('change', listener, { signal });
}

/**
 * Follows GET /v1/themes/events until `signal` aborts: each `theme` event is handed to `onTheme`. fetch
 * rather than EventSource, so the Public Key travels in a header, not in the URL; reconnects after a pause.
 */
export async function followTheme(credentials: Credentials, onTheme: (theme: Theme) => void, signal: AbortSignal): Promise<void> {
  while (!signal.aborted) {
    try {
      const response = await fetch(urlOf(credentials, '/v1/themes/events'), { headers: { 'X-Public-Key': credentials.publicKey }, signal });
      if (response.ok && response.body) await readEvents(response.body, onTheme);
    } catch {
      // Network errors and aborts: retried below unless aborted.
    }
    await new Promise((resolve) => setTimeout(resolve, 3_000));
  }
}

async function readEvents(body: ReadableStream<Uint8Array>, onTheme: (theme: Theme) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const lines = block.split('\n');
      if (!lines.includes('event: theme')) continue;
      const data = lines.filter((line) => line.startsWith('data: ')).map((line) => line.slice(6)).join('\n');
      onTheme(JSON.parse(data) as Theme);
    }
  }
}
