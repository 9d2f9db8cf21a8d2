import { createReadStream } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { createInflateRaw } from 'node:zlib';
import { validationFailed } from '../errors';
import { READ_PIECE_BYTES } from './upload-files';

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const DATA_DESCRIPTOR = 0x08074b50;
/** The end record (22 bytes) and the longest comment a zip file may end with. */
const TAIL_BYTES = 22 + 0xffff;
/** A zip64 size field: the real size is elsewhere (and may be anything). */
const UNKNOWN = 0xffffffff;
const STORED = 0;
const DEFLATED = 8;

interface Entry {
  method: number;
  compressed: number;
  declared: number;
  offset: number;
  /** Where its compressed bytes start (after its local header). */
  start: number;
}

/**
 * What a zip file's entries expand to, in all, stopping past `cap` (Infinity when a size is given only in zip64
 * fields): first as its central directory says, then as its entries really inflate (inflated and thrown away),
 * since a directory may lie. The entries must lie end to end up to the directory, as the directory lists them:
 * a streaming reader (exceljs reads the local headers in order) then meets exactly the entries counted here.
 * A workbook that expands beyond reason (a "zip bomb") is thus refused before a byte of it is parsed or written
 * out. Throws validation_failed when the file is no zip archive, a truncated or damaged one.
 */
export async function zipExpandedBytes(file: string, cap: number): Promise<number> {
  const handle = await open(file, 'r');
  let entries: Entry[];
  try {
    entries = await directoryEntries(handle);
  } finally {
    await handle.close();
  }
  let total = 0;
  for (const entry of entries) {
    if (entry.declared === UNKNOWN || entry.compressed === UNKNOWN) return Infinity;
    total += entry.declared;
  }
  if (total > cap) return total;
  total = 0;
  for (const entry of entries) {
    if (entry.method === STORED) total += entry.compressed;
    else total = await inflatedBytes(file, entry, total, cap);
    if (total > cap) return total;
  }
  return total;
}

/** The directory's entries, checked to lie end to end from the file's start to the directory. */
async function directoryEntries(handle: FileHandle): Promise<Entry[]> {
  const { size } = await handle.stat();
  const tailLength = Math.min(size, TAIL_BYTES);
  const tail = await bytesAt(handle, size - tailLength, tailLength);
  let end = -1;
  for (let at = tailLength - 22; at >= 0; at--) {
    if (tail.readUInt32LE(at) === END_OF_DIRECTORY) {
      end = at;
      break;
    }
  }
  if (end < 0) throw notZip('it has no zip directory (truncated, or not an XLSX file)');
  const directorySize = tail.readUInt32LE(end + 12);
  const directoryOffset = tail.readUInt32LE(end + 16);
  if (directoryOffset === UNKNOWN) return [{ method: DEFLATED, compressed: UNKNOWN, declared: UNKNOWN, offset: 0, start: 0 }];
  if (directoryOffset + directorySize > size) throw notZip('its zip directory points past its end (truncated)');
  const directory = await bytesAt(handle, directoryOffset, directorySize);
  const entries: Entry[] = [];
  for (let at = 0; at + 46 <= directorySize; ) {
    if (directory.readUInt32LE(at) !== DIRECTORY_ENTRY) throw notZip('its zip directory is damaged');
    entries.push({ method: directory.readUInt16LE(at + 10), compressed: directory.readUInt32LE(at + 20), declared: directory.readUInt32LE(at + 24), offset: directory.readUInt32LE(at + 42), start: 0 });
    at += 46 + directory.readUInt16LE(at + 28) + directory.readUInt16LE(at + 30) + directory.readUInt16LE(at + 32);
  }
  if (entries.some((entry) => entry.compressed === UNKNOWN || entry.offset === UNKNOWN)) return entries;
  let expected = 0;
  for (const entry of [...entries].sort((a, b) => a.offset - b.offset)) {
    const local = await bytesAt(handle, entry.offset, 30);
    const flags = local.length === 30 ? local.readUInt16LE(6) : 0;
    const described = (flags & 8) !== 0;
    if (
      entry.offset !== expected ||
      local.length < 30 ||
      local.readUInt32LE(0) !== LOCAL_HEADER ||
      local.readUInt16LE(8) !== entry.method ||
      (!described && local.readUInt32LE(18) !== entry.compressed) ||
      (entry.method !== STORED && entry.method !== DEFLATED)
    ) {
      throw notZip('its entries do not match its zip directory');
    }
    entry.start = entry.offset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
    expected = entry.start + entry.compressed;
    if (described) {
      const descriptor = await bytesAt(handle, expected, 4);
      expected += descriptor.length === 4 && descriptor.readUInt32LE(0) === DATA_DESCRIPTOR ? 16 : 12;
    }
  }
  if (expected !== directoryOffset) throw notZip('its entries do not match its zip directory');
  return entries;
}

/** `total` plus what a deflated entry inflates to, counted as it inflates; stops once past `cap`. */
function inflatedBytes(file: string, entry: Entry, total: number, cap: number): Promise<number> {
  return new Promise((resolve, reject) => {
    if (entry.compressed === 0) return resolve(total);
    const input = createReadStream(file, { start: entry.start, end: entry.start + entry.compressed - 1, highWaterMark: READ_PIECE_BYTES });
    const inflater = createInflateRaw();
    const stop = (value: number) => {
      input.destroy();
      inflater.destroy();
      resolve(value);
    };
    inflater.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > cap) stop(total);
    });
    inflater.on('end', () => resolve(total));
    inflater.on('error', () => {
      input.destroy();
      reject(notZip('an entry of it does not inflate (damaged)'));
    });
    input.on('error', reject);
    input.pipe(inflater);
  });
}

async function bytesAt(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

const notZip = (why: string) => validationFailed([{ path: 'file', message: `the file is not a readable XLSX workbook: ${why}` }]);
