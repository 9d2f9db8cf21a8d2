import { createReadStream, statSync } from 'node:fs';
import path from 'node:path';
import { SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import { parse } from 'csv-parse';
import { parseRowJson } from '../../lib/exact-json';
import { readLines } from '../../lib/lines';
import { inSlices } from '../../lib/slices';
import { ServiceError, validationFailed } from '../../services/errors';
import { loadImport, SLICE_ROWS } from '../../services/imports';
import { printJson, type CliIo } from '../io';
import { configOverrides } from '../options';
import { withServices, type CliRuntime } from '../runtime';

interface ImportOptions {
  env: string;
  template: string;
  format?: string;
  account?: string;
  json?: boolean;
}

export function registerImport(program: Command, runtime: CliRuntime): void {
  program
    .command('import')
    .description('bulk-load a CSV (header row = column keys) or NDJSON (one row object a line) file as one import')
    .argument('<file>', 'the file to load')
    .requiredOption('--env <name>', 'environment the import is recorded under')
    .requiredOption('--template <key>', 'template key (created when it does not exist)')
    .option('--format <format>', 'csv or ndjson (default: from the file extension)')
    .option('--account <name>', 'account (default: default)')
    .option('--json', 'print the created import as JSON')
    .action(async (file: string, options: ImportOptions, command: Command) => {
      const format = fileFormat(file, options.format);
      let sizeBytes: number;
      try {
        sizeBytes = statSync(file).size;
      } catch {
        throw new ServiceError('not_found', `file ${file} not found`);
      }
      const input = createReadStream(file);
      const progress = runtime.io.errIsTTY && runtime.io.errStream ? progressBar(runtime.io.errStream, sizeBytes) : undefined;
      input.on('data', () => progress?.update(input.bytesRead));
      try {
        const rows = format === 'csv' ? csvRows(input) : ndjsonRows(input);
        const created = await withServices(runtime, configOverrides(command), (ctx) =>
          loadImport(ctx, { account: options.account, environment: options.env, templateKey: options.template, fileName: file, sizeBytes }, inSlices(rows, SLICE_ROWS)),
        );
        progress?.update(sizeBytes);
        printResult(runtime.io, created, options.json);
      } finally {
        progress?.stop();
        input.destroy();
      }
    });
}

function fileFormat(file: string, given: string | undefined): 'csv' | 'ndjson' {
  const format = (given ?? path.extname(file).slice(1)).toLowerCase();
  if (format === 'csv') return 'csv';
  if (format === 'ndjson' || format === 'jsonl') return 'ndjson';
  throw validationFailed([{ path: 'format', message: 'give a .csv or .ndjson file, or --format csv|ndjson' }]);
}

/** CSV records as objects keyed by the header row; every cell is a string, as in the file. */
async function* csvRows(input: NodeJS.ReadableStream): AsyncGenerator<Record<string, string>> {
  const parser = input.pipe(
    parse({
      bom: true,
      skip_empty_lines: true,
      columns: (header: string[]) => {
        const duplicate = header.find((key, i) => header.indexOf(key) !== i);
        if (duplicate !== undefined) throw validationFailed([{ path: 'header', message: `column ${JSON.stringify(duplicate)} appears twice` }]);
        return header;
      },
    }),
  );
  try {
    for await (const record of parser) yield record as Record<string, string>;
  } catch (error) {
    if (error instanceof ServiceError) throw error;
    throw validationFailed([{ path: 'file', message: (error as Error).message }]);
  }
}

async function* ndjsonRows(input: AsyncIterable<Uint8Array>): AsyncGenerator<unknown> {
  let line = 0;
  for await (const text of readLines(input)) {
    line++;
    try {
      yield parseRowJson(text);
    } catch (error) {
      throw new ServiceError('invalid_json', `line ${line} is not valid JSON: ${(error as Error).message}`);
    }
  }
}

function printResult(io: CliIo, created: { id: string; rowCount: number; templateId: string }, json: boolean | undefined): void {
  if (json) printJson(io, created);
  else io.out(`import ${created.id} created: ${created.rowCount} rows (template ${created.templateId})\n`);
}

/** Bytes read / file size and the rate, on stderr (drawn only when stderr is a terminal). */
function progressBar(stream: NodeJS.WritableStream, total: number) {
  const bar = new SingleBar({ stream, format: 'importing [{bar}] {percentage}% | {value}/{total} bytes | eta {eta_formatted}', hideCursor: true });
  bar.start(total, 0);
  return { update: (bytes: number) => bar.update(bytes), stop: () => bar.stop() };
}
