/** An open Server-Sent Events response read event by event. */
export interface EventReader {
  /** The next `event: NAME` message's parsed data (other events and comments are skipped). */
  next(name: string, timeoutMs?: number): Promise<any>;
  /** Every raw text received so far (comments included). */
  received(): string;
  /** Resolves when the server ends the stream. */
  ended(): Promise<void>;
  cancel(): Promise<void>;
}

/** Reads an SSE response body; fails a wait after `timeoutMs` rather than hanging the test run. */
export function readEvents(response: Response): EventReader {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let all = '';
  let done = false;
  const pull = async (): Promise<boolean> => {
    const chunk = await reader.read();
    if (chunk.done) {
      done = true;
      return false;
    }
    const text = decoder.decode(chunk.value, { stream: true });
    buffer += text;
    all += text;
    return true;
  };
  return {
    async next(name, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const lines = buffer.slice(0, end).split('\n');
          buffer = buffer.slice(end + 2);
          if (lines.includes(`event: ${name}`)) return JSON.parse(lines.filter((line) => line.startsWith('data: ')).map((line) => line.slice(6)).join('\n'));
        }
        if (done) throw new Error(`the stream ended before an event "${name}"`);
        const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no event "${name}" in ${timeoutMs} ms`)), Math.max(0, deadline - Date.now())).unref());
        await Promise.race([pull(), timeout]);
      }
    },
    received: () => all,
    async ended() {
      while (await pull());
    },
    cancel: () => reader.cancel(),
  };
}
