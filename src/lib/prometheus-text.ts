/** One sample line of the Prometheus text format: `name{label="value",...} number`. */
export interface PrometheusSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)/;
const LABEL = /([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g;
const ESCAPES: Record<string, string> = { n: '\n', '\\': '\\', '"': '"' };

/**
 * The samples of a scrape, comments skipped. Written here because parse-prometheus-text-format, the only
 * parser on npm, drops every series but one of a labelled histogram.
 */
export function parsePrometheusText(text: string): PrometheusSample[] {
  const samples: PrometheusSample[] = [];
  for (const line of text.split('\n')) {
    const match = SAMPLE.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const [, key, raw] of (match[2] ?? '').matchAll(LABEL)) labels[key!] = raw!.replace(/\\(.)/g, (all, c: string) => ESCAPES[c] ?? all);
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}
