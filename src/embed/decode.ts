/** How the bytes of a text file were read, and whether the guess may be wrong (then a choice is shown). */
export interface Decoded {
  text: string;
  charset: Charset;
  uncertain: boolean;
}

export const CHARSETS = ['utf-8', 'utf-16le', 'utf-16be', 'windows-1252'] as const;
export type Charset = (typeof CHARSETS)[number];

/**
 * Decodes a text file as people have them: a byte order mark decides (UTF-8, or UTF-16 LE/BE as Excel's
 * "Unicode text" writes); else UTF-8 if the bytes are valid UTF-8; else Windows-1252 (Excel's "CSV" on
 * Western Windows). Only the last is a guess. `forced` replaces the detection (the user's choice).
 */
export function decodeText(bytes: Uint8Array, forced?: Charset): Decoded {
  if (forced) return { text: new TextDecoder(forced).decode(stripBom(bytes, forced)), charset: forced, uncertain: true };
  const bom = bomCharset(bytes);
  if (bom) return { text: new TextDecoder(bom).decode(stripBom(bytes, bom)), charset: bom, uncertain: false };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), charset: 'utf-8', uncertain: false };
  } catch {
    return { text: new TextDecoder('windows-1252').decode(bytes), charset: 'windows-1252', uncertain: true };
  }
}

function bomCharset(bytes: Uint8Array): Charset | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return undefined;
}

function stripBom(bytes: Uint8Array, charset: Charset): Uint8Array {
  return bomCharset(bytes) === charset ? bytes.subarray(charset === 'utf-8' ? 3 : 2) : bytes;
}
