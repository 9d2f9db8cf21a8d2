import { ConfigError, loadConfig, type RawConfig } from './config/config';
import { batchedLines, createLogger } from './core/logger';
import { redactDatabaseUrl } from './core/database-url';
import { siblingWorkerScript, type WorkerScript } from './core/worker-script';
import { openStore, type OpenStoreOptions } from './db/open-store';
import { DatabaseFileError } from './db/sqlite/database-file';
import { createApp } from './http/app';
import { serveBanner } from './cli/serve-banner';
import { startMetricsListener } from './http/metrics/listener';
import { createMetrics } from './http/metrics/registry';
import { startServer } from './http/server';
import type { CliIo } from './cli/io';
import { runCli } from './cli/program';
import type { CliRuntime } from './cli/runtime';
import { scheduleRetention } from './services/compliance';
import { createServiceContext } from './services/create-context';
import { ServiceError } from './services/errors';
import { cleanAbandonedImports } from './services/imports';
import { checkFilesDir, FilesDirError, sweepUploads } from './services/uploads';
import { startWebhookSender } from './services/webhooks';
import { schedule } from './services/schedule';
import { VERSION } from './version';

/** How the database is reached: the defaults in development, the executable's embedded assets inside it. */
export type Platform = Pick<OpenStoreOptions, 'nativeBinding' | 'nativeBindingFile' | 'migrations' | 'pgMigrations' | 'checkpointWorker'> & {
  versionSuffix?: string;
  parseWorker?: WorkerScript;
  embedScript?: string;
};

/** Wires configuration, storage, services and both front doors over real process I/O. */
export function createRuntime(io: CliIo, env: Record<string, string | undefined>, platform: Platform = {}): CliRuntime {
  const config = (overrides: Partial<RawConfig>) => loadConfig(env, overrides);
  const open = async (overrides: Partial<RawConfig>, { create = false, serving = false } = {}) => {
    const settings = config(overrides);
    // Only the serving process checkpoints on a thread: a CLI command's few commits checkpoint as they go.
    const checkpointWorker = serving ? (platform.checkpointWorker ?? siblingWorkerScript('checkpoint-worker.cjs')) : undefined;
    const storage = await openStorage(settings.dbPath, { ...platform, create, checkpointWorker, reserveSpace: serving, pgConnections: settings.postgres });
    const ctx = await createServiceContext(storage.store, settings, undefined, platform.parseWorker).catch(async (error: unknown) => {
      await storage.close();
      throw error;
    });
    return {
      ctx,
      created: storage.created,
      close: async () => {
        void ctx.parsePool.close();
        await storage.close();
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
      const logger = createLogger(settings.logLevel, batchedLines((text) => io.out(text)));
      const { ctx, created, close } = await open(overrides, { create: true, serving: true });
      await checkFilesDir(ctx).catch(async (error: unknown) => {
        await close();
        throw error instanceof FilesDirError ? new ConfigError(`invalid setting ${error.message}`) : error;
      });
      if (created) logger.info('database created', { db: redactDatabaseUrl(ctx.config.dbPath) });
      const embedSource = platform.embedScript === undefined ? undefined : { text: platform.embedScript };
      const metrics = settings.metricsAddr ? createMetrics({ parsePool: ctx.parsePool, pools: ctx.store.admin.pools }) : undefined;
      const metricsListener = metrics && settings.metricsAddr ? await startMetricsListener(metrics.registry, settings.metricsAddr, logger) : undefined;
      const deps = { ctx, logger, embedSource, metrics };
      const server = await startServer(createApp(deps).fetch, settings, logger, metrics).catch((error: unknown) => {
        void metricsListener?.close();
        void close();
        throw error;
      });
      // A person at a terminal gets one line saying where to go; piped or collected output stays JSON lines only.
      const human = io.outIsTTY ? io.out : io.errIsTTY ? io.err : undefined;
      human?.(serveBanner(VERSION, settings.host, server.port));
      // At start and then every lease: imports whose writer stopped renewing its lease (a node that died).
      const cleanupReport = {
        done: (count: number) => {
          if (count > 0) logger.warn('removed imports left unfinished by a stopped node', { count });
        },
        failed: (error: unknown) => logger.error('clean-up of unfinished imports failed', { error: error instanceof Error ? error.message : String(error) }),
      };
      const cleanup = schedule((signal) => cleanAbandonedImports(ctx, signal), cleanupReport, settings.leaseSeconds * 1000);
      // Uploads no request looks after: resumed (a node died processing one), expired, or kept for an import that is gone.
      const uploadReport = {
        done: (result: { resumed: number; expired: number; removed: number }) => {
          if (result.resumed + result.expired + result.removed > 0) logger.info('uploads swept', { ...result });
        },
        failed: (error: unknown) => logger.error('upload sweep failed', { error: error instanceof Error ? error.message : String(error) }),
      };
      const uploads = schedule(
        (signal) => sweepUploads(ctx, signal, (error) => uploadReport.failed(error)),
        uploadReport,
        settings.leaseSeconds * 1000,
      );
      const retention = scheduleRetention(ctx, {
        purged: (result) => logger.info('retention purge', { retentionDays: settings.retentionDays, ...result }),
        failed: (error) => logger.error('retention purge failed', { error: error instanceof Error ? error.message : String(error) }),
      });
      // Never on a request's path: an import's answer does not wait for its webhooks.
      const webhooks = startWebhookSender(ctx, {
        attempted: (delivery, attempt, outcome) => {
          const fields = { eventId: delivery.eventId, webhookId: delivery.endpointId, attempt, statusCode: outcome.statusCode, error: outcome.error };
          metrics?.webhookAttempt(outcome.ok ? 'delivered' : 'failed');
          if (outcome.ok) logger.info('webhook delivered', fields);
          else logger.warn('webhook attempt failed', fields);
        },
        failed: (error) => logger.error('webhook sender failed', { error: error instanceof Error ? error.message : String(error) }),
      });
      await new Promise<void>((resolve) => {
        const stop = (signal: string) => {
          logger.info('shutting down', { signal });
          process.off('SIGTERM', stop).off('SIGINT', stop);
          resolve();
        };
        process.on('SIGTERM', stop).on('SIGINT', stop);
      });
      // Open theme streams never end by themselves: ending them lets the drain below finish.
      ctx.themeEvents.closeAll();
      // Past the grace, what is still open is cut: an orchestrator's own deadline (Kubernetes: 30 s) must not
      // find the process still draining and kill it before the database is closed.
      await server.close(settings.shutdownGraceSeconds * 1000);
      await metricsListener?.close();
      await retention.stop();
      await webhooks.stop();
      await cleanup.stop();
      await uploads.stop();
      await close();
      logger.info('stopped');
    },
  };
}

/** Opens the database, turning an unusable path or URL into the CLI's error vocabulary (named in both). */
async function openStorage(target: string, options: OpenStoreOptions) {
  try {
    return await openStore(target, options);
  } catch (error) {
    if (!(error instanceof DatabaseFileError)) throw error;
    if (error.kind === 'missing') {
      throw new ServiceError('not_found', `${error.message}: create it with \`importd migrate --db ${error.file}\` or start \`importd serve\``);
    }
    throw new ConfigError(`invalid setting IMPORTD_DB (--db): ${error.message}`);
  }
}

/** The entry of `bin/importd` and of the executable. Returns the process exit code. */
export function main(argv: string[] = process.argv.slice(2), platform: Platform = {}): Promise<number> {
  // Everything importd creates (database, -wal, -shm, backups, exports, folders) is for its owner only.
  process.umask(0o077);
  const io: CliIo = {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    errIsTTY: Boolean(process.stderr.isTTY),
    outIsTTY: Boolean(process.stdout.isTTY),
    outStream: process.stdout,
    errStream: process.stderr,
    // Read only by commands that take `-`: touching process.stdin opens it.
    get inStream() {
      return process.stdin;
    },
  };
  return runCli(createRuntime(io, process.env, platform), argv);
}
