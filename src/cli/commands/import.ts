import { statSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { ServiceError, validationFailed } from '../../services/errors';
import { CHARSETS, fileRows, type Charset, type UploadFormat } from '../../services/uploads';
import { type DatasetChanges, type DryRunResult, type ImportListItem, checkImportBytes, countedChunks, loadImport, type RowSlice } from '../../services/imports';
import { importProgressBar } from '../import-progress';
import { printJson, type CliIo } from '../io';
import { configOverrides } from '../options';
import { withServices, type CliRuntime } from '../runtime';

interface ImportOptions {
  env: string;
  template: string;
  format?: string;
  delimiter?: string;
  charset?: string;
  sheet?: string;
  headerRow?: string;
  account?: string;
  json?: boolean;
  mode?: string;
  dryRun?: boolean;
}

export function registerImport(program: Command, runtime: CliRuntime): void {
  program
    .command('import')
    .description('bulk-load a CSV or TSV (header row = column keys), XLSX (one sheet) or NDJSON (one row object a line) file as one import')
    .argument('<file>', 'the file to load')
    .requiredOption('--env <name>', 'environment the import is recorded under')
    .requiredOption('--template <key>', 'template key (created when it does not exist)')
    .option('--format <format>', 'csv, tsv, xlsx or ndjson (default: from the file extension)')
    .option('--delimiter <char>', 'CSV: the field delimiter, such as ";" or tab (default: detected from the header line among , ; tab |)')
    .option('--charset <name>', 'CSV/TSV: auto (default: byte order mark, UTF-16, else UTF-8 when valid, else windows-1252), utf-8, utf-16le, utf-16be or windows-1252')
    .option('--sheet <name>', 'XLSX: the sheet to load (default: the first)')
    .option('--header-row <n>', 'CSV/TSV: the line, XLSX: the row of the header (default: 1)')
    .option('--account <name>', 'account (default: default)')
    .option('--mode <mode>', 'keyed template: upsert (default) or replace (records the file does not hold are removed)')
    .option('--dry-run', 'validate and compare with the dataset, store nothing; print what would change')
    .option('--json', 'print the created import as JSON')
    .action(async (file: string, options: ImportOptions, command: Command) => {
      const format = fileFormat(file, options.format);
      const sizeBytes = fileSize(file);
      if (sizeBytes === 0) throw validationFailed([{ path: 'file', message: `${file} is empty` }]);
      const limits = runtime.loadConfig(configOverrides(command)).limits;
      const maxBytes = limits.importBytes;
      checkImportBytes(sizeBytes, maxBytes);
      const delimiter = options.delimiter === undefined ? undefined : delimiterOption(options.delimiter);
      const metadata = { delimiter, charset: charsetOption(options.charset), sheet: options.sheet, headerRow: headerRowOption(options.headerRow) };
      const progress = runtime.io.errIsTTY && runtime.io.errStream ? importProgressBar(runtime.io.errStream, sizeBytes) : undefined;
      let bytesRead = 0;
      // The same reading as an upload's (charset, delimiter, XLSX); counted as read too: a file that grows while
      // it is loaded is bounded all the same.
      const source = await fileRows(file, format, metadata, limits, (chunks) =>
        countedChunks(chunks, maxBytes, (seen) => {
          bytesRead = seen;
          progress?.read(seen);
        }),
      );
      try {
        // The first rows are read before anything is stored: an empty file creates neither import nor template.
        const rows = await nonEmpty(source.rows, file, format, progress?.rows);
        const created = await withServices(runtime, configOverrides(command), (ctx) =>
          loadImport(ctx, { account: options.account, environment: options.env, templateKey: options.template, fileName: file, sizeBytes, bytesRead: () => (format === 'xlsx' ? source.bytesRead() : bytesRead), mode: options.mode, dryRun: options.dryRun }, rows),
        );
        progress?.stop(sizeBytes);
        printResult(runtime.io, created, options.json);
      } finally {
        progress?.stop(source.bytesRead());
      }
    });
}

function fileFormat(file: string, given: string | undefined): UploadFormat {
  const format = (given ?? path.extname(file).slice(1)).toLowerCase();
  if (format === 'csv' || format === 'tsv' || format === 'xlsx') return format;
  if (format === 'ndjson' || format === 'jsonl') return 'ndjson';
  throw validationFailed([{ path: '--format', message: 'give a .csv, .tsv, .xlsx or .ndjson file, or --format csv|tsv|xlsx|ndjson' }]);
}

function charsetOption(given: string | undefined): Charset | 'auto' | undefined {
  if (given === undefined || given === 'auto' || (CHARSETS as readonly string[]).includes(given.toLowerCase())) return given?.toLowerCase() as Charset | 'auto' | undefined;
  throw validationFailed([{ path: '--charset', message: `give auto or one of ${CHARSETS.join(', ')}` }]);
}

function headerRowOption(given: string | undefined): number | undefined {
  if (given === undefined) return undefined;
  const row = Number(given);
  if (!Number.isInteger(row) || row < 1 || row > 1000) throw validationFailed([{ path: '--header-row', message: 'give a line number from 1 to 1000' }]);
  return row;
}

function fileSize(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    throw new ServiceError('not_found', `file ${file} not found`);
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
  format: UploadFormat,
  counted?: (rows: number) => void,
): Promise<AsyncGenerator<RowSlice>> {
  const first = await slices.next();
  if (first.done) {
    const why = format === 'ndjson' ? 'has no rows (one JSON object a line)' : `has no data rows (a ${format.toUpperCase()} file needs a header row, then one row a line)`;
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

function printResult(io: CliIo, created: ImportListItem | DryRunResult, json: boolean | undefined): void {
  if (json) printJson(io, created);
  else if ('dryRun' in created) io.out(`dry run, nothing stored: ${created.rowCount} rows (template ${created.templateId})${changesText(created.changes)}\n`);
  // Into a template that requires review: say so, as the import does not count yet.
  else io.out(`import ${created.id} created: ${created.rowCount} rows (template ${created.templateId})${created.status === 'pending_review' ? ', pending review' : ''}${changesText(created.changes ?? null)}\n`);
}

function changesText(changes: DatasetChanges | null): string {
  return changes ? `; ${changes.inserted} new, ${changes.updated} changed, ${changes.unchanged} unchanged, ${changes.missing} missing, ${changes.removed} removed` : '';
}
