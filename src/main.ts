import { loadConfig, type RawConfig } from './config/config';
import { createLogger } from './core/logger';
import { openDatabase, type OpenOptions } from './db/open-database';
import { createApp } from './http/app';
import { startMetricsListener } from './http/metrics/listener';
import { createMetrics } from './http/metrics/registry';
import { startServer } from './http/server';
import type { CliIo } from './cli/io';
import { runCli } from './cli/program';
import type { CliRuntime } from './cli/runtime';
import { scheduleRetention } from './services/compliance';
import { createServiceContext } from './services/create-context';
import type { WorkerScript } from './services/imports/parse-pool';
import { cleanAbandonedImports } from './services/imports';

export const VERSION = '0.1.0';

/** How the database is reached: the defaults in development, the executable's embedded assets inside it. */
export type Platform = Pick<OpenOptions, 'nativeBinding' | 'migrations'> & { versionSuffix?: string; parseWorker?: WorkerScript };

/** Wires configuration, storage, services and both front doors over real process I/O. */
export function createRuntime(io: CliIo, env: Record<string, string | undefined>, platform: Platform = {}): CliRuntime {
  const config = (overrides: Partial<RawConfig>) => loadConfig(env, overrides);
  const open = (overrides: Partial<RawConfig>) => {
    const settings = config(overrides);
    const storage = openDatabase(settings.dbPath, platform);
    const ctx = createServiceContext(storage, settings, undefined, platform.parseWorker);
    return {
      ctx,
      close: () => {
        void ctx.parsePool.close();
        storage.close();
      },
    };
  };
  return {
    io,
    version: `${VERSION}${platform.versionSuffix ?? ''}`,
    loadConfig: config,
    open,
    async serve(overrides) {
      const settings = config(overrides);
      const logger = createLogger(settings.logLevel, (line) => io.out(line));
      const { ctx, close } = open(overrides);
      const abandoned = cleanAbandonedImports(ctx);
      if (abandoned > 0) logger.warn('removed imports left unfinished by a stopped process', { count: abandoned });
      const metrics = settings.metricsAddr ? createMetrics(ctx) : undefined;
      const metricsListener = metrics && settings.metricsAddr ? await startMetricsListener(metrics.registry, settings.metricsAddr, logger) : undefined;
      const server = await startServer(createApp({ ctx, logger, metrics }).fetch, settings, logger);
      const retention = scheduleRetention(ctx, {
        purged: (result) => logger.info('retention purge', { retentionDays: settings.retentionDays, ...result }),
        failed: (error) => logger.error('retention purge failed', { error: error instanceof Error ? error.message : String(error) }),
      });
      await new Promise<void>((resolve) => {
        const stop = (signal: string) => {
          logger.info('shutting down', { signal });
          process.off('SIGTERM', stop).off('SIGINT', stop);
          resolve();
        };
        process.on('SIGTERM', stop).on('SIGINT', stop);
      });
      await server.close();
      await metricsListener?.close();
      await retention.stop();
      close();
      logger.info('stopped');
    },
  };
}

/** The entry of `bin/importd` and of the executable. Returns the process exit code. */
export function main(argv: string[] = process.argv.slice(2), platform: Platform = {}): Promise<number> {
  const io: CliIo = {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    errIsTTY: Boolean(process.stderr.isTTY),
    outStream: process.stdout,
    errStream: process.stderr,
  };
  return runCli(createRuntime(io, process.env, platform), argv);
}
