const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
export type LogLevel = keyof typeof LEVELS;

export interface Logger {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

// Key- and token-shaped text: importd keys (sk_/pk_ + base62) and JWTs (three base64url parts, the first
// one a JSON object, so "eyJ"). Callers never log them on purpose; this catches a client that put one in a
// URL path or an error message that quoted one.
const SECRET_SHAPES = /(?:sk|pk)_[0-9A-Za-z]{8,}|eyJ[\w-]*\.[\w-]+(?:\.[\w-]*)?/g;

/** Replaces anything shaped like an API key or session token with `[redacted]`. */
export function redactSecrets(text: string): string {
  return text.replace(SECRET_SHAPES, '[redacted]');
}

/** One JSON object a line, with key- and token-shaped text redacted. Callers pass fields only. */
export function createLogger(level: LogLevel, write: (line: string) => void = (line) => process.stdout.write(line)): Logger {
  const emit = (at: Exclude<LogLevel, 'silent'>, msg: string, fields?: Record<string, unknown>) => {
    if (LEVELS[at] < LEVELS[level]) return;
    write(`${redactSecrets(JSON.stringify({ time: new Date().toISOString(), level: at, msg, ...fields }))}\n`);
  };
  return {
    info: (msg, fields) => emit('info', msg, fields),
    warn: (msg, fields) => emit('warn', msg, fields),
    error: (msg, fields) => emit('error', msg, fields),
  };
}

/**
 * A sink that gathers the lines written in one turn of the event loop and writes them at once after it. The
 * serving process logs a line per request: written one by one to a pipe (synchronous on Linux), those writes
 * were 13 % of a small read's server CPU (a CPU profile under load). The lines left at exit are written then.
 */
export function batchedLines(write: (text: string) => void): (line: string) => void {
  let pending = '';
  const flush = () => {
    const text = pending;
    pending = '';
    if (text !== '') write(text);
  };
  process.once('exit', flush);
  return (line) => {
    if (pending === '') setImmediate(flush);
    pending += line;
  };
}
