import { closeSync, createReadStream, openSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { detectCsvDelimiter } from '../../lib/csv-delimiter';
import { inSlices } from '../../lib/slices';
import { ServiceError, validationFailed } from '../../services/errors';
import { csvRows } from '../../services/uploads';
import { checkImportBytes, countedChunks, loadImport, ndjsonLineBatches, ndjsonRowSlices, SLICE_ROWS, type RowSlice } from '../../services/imports';
import { importProgressBar } from '../import-progress';
import { printJson, type CliIo } from '../io';
import { configOverrides } from '../options';
import { withServices, type CliRuntime } from '../runtime';

interface ImportOptions {
  env: string;
  template: string;
  format?: string;
  delimiter?: string;
  account?: string;
  json?: boolean;
}

/** How much of a CSV file is read to find its header line's delimiter. */
const HEADER_PEEK_BYTES = 64 * 1024;

export function registerImport(program: Command, runtime: CliRuntime): void {
  program
    .command('import')
    .description('bulk-load a CSV (header row = column keys) or NDJSON (one row object a line) file as one import')
    .argument('<file>', 'the file to load')
    .requiredOption('--env <name>', 'environment the import is recorded under')
    .requiredOption('--template <key>', 'template key (created when it does not exist)')
    .option('--format <format>', 'csv or ndjson (default: from the file extension)')
    .option('--delimiter <char>', 'CSV: the field delimiter, such as ";" or tab (default: detected from the header line among , ; tab |)')
    .option('--account <name>', 'account (default: default)')
    .option('--json', 'print the created import as JSON')
    .action(async (file: string, options: ImportOptions, command: Command) => {
      const format = fileFormat(file, options.format);
      const sizeBytes = fileSize(file);
      if (sizeBytes === 0) throw validationFailed([{ path: 'file', message: `${file} is empty` }]);
      const limits = runtime.loadConfig(configOverrides(command)).limits;
      const maxBytes = limits.importBytes;
      checkImportBytes(sizeBytes, maxBytes);
      const delimiter = format === 'csv' ? (options.delimiter === undefined ? detectCsvDelimiter(headerLine(file)) : delimiterOption(options.delimiter)) : undefined;
      const input = createReadStream(file);
      const progress = runtime.io.errIsTTY && runtime.io.errStream ? importProgressBar(runtime.io.errStream, sizeBytes) : undefined;
      input.on('data', () => progress?.read(input.bytesRead));
      try {
        // Counted as read too: a file that grows while it is loaded is bounded all the same.
        let bytesRead = 0;
        const chunks = countedChunks(input, maxBytes, (seen) => (bytesRead = seen));
        const slices = delimiter === undefined ? ndjsonRowSlices(ndjsonLineBatches(chunks, limits), limits.rowBytes) : inSlices(csvRows(chunks, { delimiter, maxRowBytes: limits.rowBytes }), SLICE_ROWS);
        // The first rows are read before anything is stored: an empty file creates neither import nor template.
        const rows = await nonEmpty(slices, file, format, progress?.rows);
        const created = await withServices(runtime, configOverrides(command), (ctx) =>
          loadImport(ctx, { account: options.account, environment: options.env, templateKey: options.template, fileName: file, sizeBytes, bytesRead: () => bytesRead }, rows),
        );
        progress?.stop(sizeBytes);
        printResult(runtime.io, created, options.json);
      } finally {
        progress?.stop(input.bytesRead);
        input.destroy();
      }
    });
}

function fileFormat(file: string, given: string | undefined): 'csv' | 'ndjson' {
  const format = (given ?? path.extname(file).slice(1)).toLowerCase();
  if (format === 'csv') return 'csv';
  if (format === 'ndjson' || format === 'jsonl') return 'ndjson';
  throw validationFailed([{ path: '--format', message: 'give a .csv or .ndjson file, or --format csv|ndjson' }]);
}

function fileSize(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    throw new ServiceError('not_found', `file ${file} not found`);
  }
}

/** The first line of the file (at most HEADER_PEEK_BYTES of it), without a byte order mark. */
function headerLine(file: string): string {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(HEADER_PEEK_BYTES);
    const text = buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, 0)).toString('utf8');
    return text.replace(/^\ufeff/, '').split(/\r?\n/, 1)[0]!;
  } finally {
    closeSync(fd);
  }
}

function delimiterOption(given: string): string {
  const delimiter = given.toLowerCase() === 'tab' || given === '\\t' ? '\t' : given;
  if ([...delimiter].length !== 1 || /["\r\n]/.test(delimiter)) {
    throw validationFailed([{ path: '--delimiter', message: 'give one character, such as ";" or "|", or "tab"' }]);
  }
  return delimiter;
}

/** The slices of rows, once the first has been read; a file without any row is refused. Throws validation_failed. */
async function nonEmpty(
  slices: AsyncGenerator<RowSlice>,
  file: string,
  format: 'csv' | 'ndjson',
  counted?: (rows: number) => void,
): Promise<AsyncGenerator<RowSlice>> {
  const first = await slices.next();
  if (first.done) {
    const why = format === 'csv' ? 'has no data rows (a CSV file needs a header row, then one row a line)' : 'has no rows (one JSON object a line)';
    throw validationFailed([{ path: 'file', message: `${file} ${why}` }]);
  }
  return (async function* () {
    counted?.(first.value.length);
    yield first.value;
    for await (const slice of slices) {
      counted?.(slice.length);
      yield slice;
    }
  })();
}

function printResult(io: CliIo, created: { id: string; rowCount: number; templateId: string }, json: boolean | undefined): void {
  if (json) printJson(io, created);
  else io.out(`import ${created.id} created: ${created.rowCount} rows (template ${created.templateId})\n`);
}
