import type { Utf8Rows } from '../../db/store';

// Reused by every slice of the thread: a slice is encoded here, then copied out at its exact size.
let scratch = Buffer.allocUnsafeSlow(1024 * 1024);

/** Row texts as Utf8Rows in buffers of their own (nothing else shares them, so they can be transferred). */
export function encodeUtf8Rows(texts: readonly string[]): Utf8Rows {
  // A UTF-16 code unit is at most 3 bytes of UTF-8.
  let bound = 0;
  for (let i = 0; i < texts.length; i++) bound += texts[i]!.length * 3;
  if (scratch.length < bound) scratch = Buffer.allocUnsafeSlow(bound);
  const ends = new Int32Array(texts.length);
  let at = 0;
  for (let i = 0; i < texts.length; i++) {
    at += scratch.write(texts[i]!, at, 'utf8');
    ends[i] = at;
  }
  const utf8 = new Uint8Array(at);
  utf8.set(scratch.subarray(0, at));
  return { utf8, ends };
}
