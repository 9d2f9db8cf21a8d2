import { SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import { checkOutputFile } from '../../services/files';
import { exportRows, type ExportQuery, type RowExport } from '../../services/imports';
import type { CliIo } from '../io';
import { configOverrides } from '../options';
import { fileSink, stdoutSink } from '../output';
import { withAccount, type CliRuntime } from '../runtime';

interface ExportOptions {
  format: string;
  out?: string;
  force?: boolean;
  safe?: boolean;
  errors?: boolean;
  account?: string;
}

export function registerExport(program: Command, runtime: CliRuntime): void {
  program
    .command('export')
    .description("write all rows of an import (the same bytes as GET /v1/imports/{id}/export)")
    .argument('<importId>', 'import id')
    .option('--format <format>', 'csv, ndjson or json', 'csv')
    .option('--safe', "CSV: prefix cells starting with =, +, -, @ with ' (formula injection guard)")
    .option('--errors', "add each row's errors: an _errors column (CSV: key: message; ...) or member (NDJSON, JSON)")
    .option('--out <file>', 'write to this file instead of stdout (0600; refuses an existing file)')
    .option('--force', 'with --out: replace an existing file')
    .option('--account <name>', 'account (default: default)')
    .action(async (importId: string, options: ExportOptions, command: Command) => {
      await withAccount(runtime, configOverrides(command), options.account, async (ctx, accountId) => {
        const file = await exportRows(ctx, accountId, importId, {
          format: options.format as ExportQuery['format'], // checked by the service's schema
          safe: options.safe ? 'true' : 'false',
          errors: options.errors ? 'true' : 'false',
        });
        try {
          const out = options.out === undefined ? undefined : checkOutputFile(ctx, { file: options.out, force: options.force === true, field: '--out' });
          await writeExport(file, runtime.io, out, options.force === true);
        } finally {
          // A refused --out, or a file that cannot be opened, reads none of it: its export slot comes back here.
          await file.pieces.return();
        }
      });
    });
}

async function writeExport(file: RowExport, io: CliIo, out: string | undefined, force: boolean): Promise<void> {
  const sink = out === undefined ? stdoutSink(io) : fileSink(out, force);
  const progress = io.errIsTTY && io.errStream ? progressBar(io.errStream, file.rowCount) : undefined;
  try {
    for await (const piece of file.pieces) {
      if (!sink.open) break;
      await sink.write(piece.data);
      progress?.advance(piece.rows);
    }
    await sink.close();
  } catch (error) {
    await sink.discard();
    throw error;
  } finally {
    progress?.stop();
  }
}

/** Rows written / total and the rate, on stderr (drawn only when stderr is a terminal). */
function progressBar(stream: NodeJS.WritableStream, total: number) {
  const bar = new SingleBar({
    stream,
    format: 'exporting [{bar}] {value}/{total} rows | {rate} rows/s | eta {eta_formatted}',
    hideCursor: true,
  });
  const started = performance.now();
  let written = 0;
  bar.start(total, 0, { rate: 0 });
  return {
    advance(rows: number) {
      written += rows;
      const seconds = (performance.now() - started) / 1000;
      bar.update(written, { rate: seconds > 0 ? Math.round(written / seconds) : 0 });
    },
    stop: () => bar.stop(),
  };
}
