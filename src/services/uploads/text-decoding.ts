import { validationFailed } from '../errors';

/** The character sets a text upload may be in (metadata `charset`), besides `auto`. */
export const CHARSETS = ['utf-8', 'utf-16le', 'utf-16be', 'windows-1252'] as const;
export type Charset = (typeof CHARSETS)[number];

/**
 * The character set of a text file from its first bytes: a byte order mark says it (UTF-8, UTF-16 either
 * way); else UTF-16 without one shows as NUL bytes at every other place; else UTF-8 when the bytes are valid
 * UTF-8, Windows-1252 (what spreadsheet programs write on Windows in Western locales) when they are not.
 */
export function detectCharset(sample: Uint8Array): Charset {
  if (sample[0] === 0xef && sample[1] === 0xbb && sample[2] === 0xbf) return 'utf-8';
  if (sample[0] === 0xff && sample[1] === 0xfe) return 'utf-16le';
  if (sample[0] === 0xfe && sample[1] === 0xff) return 'utf-16be';
  const pairs = Math.min(sample.length >> 1, 512);
  let evenNul = 0;
  let oddNul = 0;
  for (let i = 0; i < pairs; i++) {
    if (sample[2 * i] === 0) evenNul++;
    if (sample[2 * i + 1] === 0) oddNul++;
  }
  if (pairs > 0 && oddNul > pairs * 0.4 && evenNul === 0) return 'utf-16le';
  if (pairs > 0 && evenNul > pairs * 0.4 && oddNul === 0) return 'utf-16be';
  // A multi-byte character cut by the end of the sample is not a fault of the file.
  const whole = sample.length < 4 ? sample : sample.subarray(0, sample.length - trailingPartial(sample));
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(whole);
    return 'utf-8';
  } catch {
    return 'windows-1252';
  }
}

/** The bytes at the end of `bytes` that start a UTF-8 character without finishing it (0 to 3). */
function trailingPartial(bytes: Uint8Array): number {
  for (let back = 1; back <= 3 && back <= bytes.length; back++) {
    const byte = bytes[bytes.length - back]!;
    if ((byte & 0xc0) === 0x80) continue;
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back ? back : 0;
  }
  return 0;
}

/**
 * The text of a file as strings, decoded as they come, without its byte order mark. A NUL character is
 * refused wherever it appears: text files never hold one, binary files (an image or archive named .csv) do.
 * Throws validation_failed.
 */
export async function* decodedText(chunks: AsyncIterable<Uint8Array>, charset: Charset): AsyncGenerator<string> {
  if (charset === 'utf-8') {
    yield* decodedUtf8(chunks);
    return;
  }
  const decoder = new TextDecoder(charset, { ignoreBOM: false });
  for await (const chunk of chunks) yield* checked(decoder.decode(chunk, { stream: true }));
  yield* checked(decoder.decode());
}

/**
 * UTF-8 piece by piece without a streaming decoder: each piece, cut to end on a whole character, is decoded on
 * Node's fast path. A streaming TextDecoder goes through ICU, slower and with native buffers of its own. Invalid
 * bytes become U+FFFD as they would there.
 */
async function* decodedUtf8(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  let atStart = true;
  for await (const piece of wholeCharacters(chunks)) {
    const text = piece.toString('utf8');
    if (atStart && text !== '') {
      atStart = false;
      yield* checked(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    } else yield* checked(text);
  }
}

/**
 * The bytes of `pieces` again, in pieces that each end on a whole UTF-8 character: the start of a character a
 * piece ends inside (trailingPartial) is kept for the next piece.
 */
export async function* wholeCharacters(pieces: AsyncIterable<Uint8Array>): AsyncGenerator<Buffer> {
  let kept: Buffer | undefined;
  for await (const piece of pieces) {
    const bytes = kept === undefined ? Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength) : Buffer.concat([kept, piece]);
    const partial = trailingPartial(bytes);
    // A copy: the piece itself is let go.
    kept = partial === 0 ? undefined : Buffer.from(bytes.subarray(bytes.length - partial));
    if (bytes.length > partial) yield bytes.subarray(0, bytes.length - partial);
  }
  if (kept !== undefined) yield kept;
}

function* checked(text: string): Generator<string> {
  if (text.includes('\0')) throw notText();
  if (text !== '') yield text;
}

const notText = () =>
  validationFailed([{ path: 'file', message: 'the file is not text (it holds NUL bytes): upload a CSV, TSV, NDJSON or XLSX file, or give its charset' }]);
