import { open } from 'node:fs/promises';
import { formatBytes } from '../lib/format-bytes';
import { ServiceError, validationFailed } from '../services/errors';
import type { CliIo } from './io';

/** The largest document a command reads from a file or stdin (a theme is about 2 KiB). */
export const MAX_DOCUMENT_BYTES = 1024 * 1024;

/**
 * Reads a JSON document from `source` (a file, or `-` for stdin), refusing more than MAX_DOCUMENT_BYTES
 * before reading it all. Throws not_found (no such file), validation_failed (too large), invalid_json.
 */
export async function readJsonDocument(source: string, io: CliIo): Promise<unknown> {
  const text = source === '-' ? await readStdin(io) : await readFile(source);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ServiceError('invalid_json', `${source === '-' ? 'stdin' : source} is not valid JSON: ${(error as Error).message}`);
  }
}

async function readFile(file: string): Promise<string> {
  const handle = await open(file, 'r').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') throw new ServiceError('not_found', `file ${file} not found`);
    throw validationFailed([{ path: 'file', message: `cannot read ${file}: ${error.message}` }]);
  });
  try {
    if ((await handle.stat()).size > MAX_DOCUMENT_BYTES) throw tooLarge(file);
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

async function readStdin(io: CliIo): Promise<string> {
  if (!io.inStream) throw validationFailed([{ path: 'file', message: 'no standard input to read' }]);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of io.inStream) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    size += buffer.length;
    if (size > MAX_DOCUMENT_BYTES) throw tooLarge('stdin');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function tooLarge(source: string): ServiceError {
  return validationFailed([{ path: 'file', message: `${source} is larger than ${formatBytes(MAX_DOCUMENT_BYTES)}` }]);
}
