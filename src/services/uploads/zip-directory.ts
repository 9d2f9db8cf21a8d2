import { open } from 'node:fs/promises';
import { validationFailed } from '../errors';

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
/** The end record (22 bytes) and the longest comment a zip file may end with. */
const TAIL_BYTES = 22 + 0xffff;
/** A zip64 size field: the real size is elsewhere (and may be anything). */
const UNKNOWN = 0xffffffff;

/**
 * What a zip file's central directory says its entries expand to, in all (Infinity when an entry's size is
 * given only in zip64 fields). Read before a byte is inflated, so an archive that would expand beyond reason (a
 * "zip bomb") is refused unread. Throws validation_failed when the file is no zip archive, or a truncated one.
 */
export async function zipExpandedBytes(file: string): Promise<number> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const tailLength = Math.min(size, TAIL_BYTES);
    const tail = Buffer.alloc(tailLength);
    await handle.read(tail, 0, tailLength, size - tailLength);
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
    if (directoryOffset === UNKNOWN) return Infinity;
    if (directoryOffset + directorySize > size) throw notZip('its zip directory points past its end (truncated)');
    const directory = Buffer.alloc(directorySize);
    await handle.read(directory, 0, directorySize, directoryOffset);
    let total = 0;
    for (let at = 0; at + 46 <= directorySize; ) {
      if (directory.readUInt32LE(at) !== DIRECTORY_ENTRY) throw notZip('its zip directory is damaged');
      const expanded = directory.readUInt32LE(at + 24);
      if (expanded === UNKNOWN) return Infinity;
      total += expanded;
      at += 46 + directory.readUInt16LE(at + 28) + directory.readUInt16LE(at + 30) + directory.readUInt16LE(at + 32);
    }
    return total;
  } finally {
    await handle.close();
  }
}

const notZip = (why: string) => validationFailed([{ path: 'file', message: `the file is not a readable XLSX workbook: ${why}` }]);
