// Numbers written as text in a declared convention: `us` 1,234.5; `eu` 1.234,5 (or 1 234,5); `auto` either,
// refusing a text the two read differently (`1.234`, `1,234`). The result is the canonical decimal text
// (`-1234.5`): the caller decides whether it fits a double exactly.

export type NumberFormat = 'us' | 'eu' | 'auto';

const PLAIN = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const US = /^[+-]?\d{1,3}(?:,\d{3})+(?:\.\d+)?$/;
const EU = /^[+-]?\d{1,3}(?:[. \u00a0\u202f']\d{3})+(?:,\d+)?$/;
const EU_PLAIN = /^[+-]?(?:\d+,?\d*|,\d+)$/;

/** The canonical decimal text of `text` under `format`, or `number` / `ambiguous_number`. */
export function readNumberText(text: string, format: NumberFormat): string | 'number' | 'ambiguous_number' {
  if (format === 'us') return readUs(text) ?? 'number';
  if (format === 'eu') return readEu(text) ?? 'number';
  const us = readUs(text);
  const eu = readEu(text);
  if (us !== undefined && eu !== undefined && Number(us) !== Number(eu)) return 'ambiguous_number';
  return us ?? eu ?? 'number';
}

function readUs(text: string): string | undefined {
  if (PLAIN.test(text)) return canonical(text);
  return US.test(text) ? canonical(text.replaceAll(',', '')) : undefined;
}

function readEu(text: string): string | undefined {
  if (EU_PLAIN.test(text)) return canonical(text.replace(',', '.'));
  return EU.test(text) ? canonical(text.replace(/[. \u00a0\u202f']/g, '').replace(',', '.')) : undefined;
}

/** Without a leading `+`, leading zeros or a trailing `.` (exponents are left to Number). */
function canonical(text: string): string {
  let out = text[0] === '+' ? text.slice(1) : text;
  const negative = out[0] === '-';
  if (negative) out = out.slice(1);
  if (out.endsWith('.')) out = out.slice(0, -1);
  if (out[0] === '.') out = `0${out}`;
  out = out.replace(/^0+(?=\d)/, '');
  return negative ? `-${out}` : out;
}

/** Digits after the decimal point of a canonical text (exponent forms: what Number prints). */
export function fractionDigits(text: string): number {
  if (/[eE]/.test(text)) {
    const printed = String(Number(text));
    const point = printed.indexOf('.');
    return point < 0 || printed.includes('e') ? 0 : printed.length - point - 1;
  }
  const point = text.indexOf('.');
  return point < 0 ? 0 : text.length - point - 1;
}
