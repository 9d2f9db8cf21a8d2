import type { SessionClaims } from '../auth';
import type { ServiceContext } from '../context';
import { learnedWrite } from '../mapping/learned-mappings';
import { checkEnvelopeLimits } from '../limits';
import { parseInput } from '../validate';
import type { LearnedMappingsWrite } from '../../db/store';
import type { CheckedRows } from './check-rows';
import { beginImport, checkInThread, writeRows, type ImportHeader, type RowSlices } from './import-writer';
import { quotaRoom, withinQuota, type ImportBytes } from './import-quota';
import { resolveTemplate } from './resolve-template';
import { ImportEnvelope, type ImportListItem } from './schemas';
import { importPolicy, validateRows, type ImportPolicy } from './validate-rows';
import { importOptions, type ImportOptions } from './import-options';
import { dryRunRows, type DryRunResult } from './dry-run';
import { datasetOf } from '../datasets/apply';
import { toListItem } from './views';

/** Who an import comes from, as established by the transport. */
export interface ImportOrigin {
  accountId: string;
  environmentId: string | null;
  /** The request Origin for SDK imports, `api` for Secret Key calls, `cli` for operator loads. */
  importedFrom: string;
  /** The verified session: the only source of end-user fields. */
  session?: SessionClaims;
  /** The client's network address: the end-user IP when the session names none. */
  clientAddress?: string;
}

// Credentials are never stored with an import (the list and detail responses return meta as stored).
const UNSTORED_META = new Set(['sessionToken', 'publicKey']);

/**
 * Builds what is stored about an import from its `meta` and `originalSchema` (validated), resolving its
 * template. End-user fields come only from the session. Throws validation_failed, template_not_allowed.
 */
export async function prepareImportHeader(
  ctx: ServiceContext,
  origin: ImportOrigin,
  envelope: { meta?: unknown; originalSchema?: unknown },
): Promise<ImportHeader> {
  return (await prepareImport(ctx, origin, envelope)).header;
}

/** The header (prepareImportHeader) and what the import's confirmed mapping has the account remember. */
async function prepareImport(
  ctx: ServiceContext,
  origin: ImportOrigin,
  envelope: { meta?: unknown; originalSchema?: unknown },
): Promise<{ header: ImportHeader; learned: LearnedMappingsWrite | undefined }> {
  checkEnvelopeLimits(envelope, ctx.config.limits);
  const parsed = parseInput(ImportEnvelope, envelope);
  const meta = (envelope.meta ?? {}) as Record<string, unknown>;
  const schema = (envelope.originalSchema ?? {}) as Record<string, unknown>;
  const schemaText = JSON.stringify(schema);
  const templateId = await resolveTemplate(ctx, origin.accountId, {
    id: parsed.meta?.schemaId ?? parsed.originalSchema?.id,
    key: parsed.meta?.schemaKey ?? parsed.originalSchema?.key,
    schemaText,
  }, origin.session?.templateId, () => sessionMayCreateTemplates(ctx, origin));
  const file = parsed.meta?.file === undefined ? null : JSON.stringify(meta.file);
  const session = origin.session;
  const header: ImportHeader = {
    accountId: origin.accountId,
    environmentId: origin.environmentId,
    templateId,
    meta: storedMeta(meta),
    originalSchema: schemaText,
    file,
    fileId: parsed.meta?.file?.fileId ?? null,
    endUserId: session?.endUserId ?? null,
    endUserEmail: session?.endUserEmail ?? null,
    endUserIp: session ? (session.endUserIp ?? origin.clientAddress ?? null) : null,
    importedFrom: origin.importedFrom,
    sessionJti: session?.jti ?? null,
    reviewStatus: 'completed',
  };
  return { header, learned: learnedWrite(ctx, { accountId: origin.accountId, templateId, endUserId: session?.endUserId }, { mapping: parsed.meta?.mapping, valueMapping: parsed.meta?.valueMapping }) };
}

/**
 * Whether the import may auto-create its template: always with a Secret Key or the CLI (no session); with a
 * Public Key session only where its environment allows it (autoCreateTemplates), so end-users cannot fill the
 * account with templates or take a key before the customer creates it.
 */
async function sessionMayCreateTemplates(ctx: ServiceContext, origin: ImportOrigin): Promise<boolean> {
  if (!origin.session) return true;
  const environment = await ctx.store.environments.findById(origin.session.environmentId);
  return environment?.autoCreateTemplates === true;
}

/**
 * Creates an import: template resolution, row checks, statistics and an atomic write of the rows, which
 * arrive in slices (`sliceRows` for an array), unchecked (checked here, as the writer asks for them) or
 * already checked (by the parse worker), then checked against the template's rules when it declares fields
 * (validateRows, run by the parse worker beside the writes for the rows it parses: its onInvalid policy decides
 * what is stored; meta.counts are the server's). A `meta.mapping`
 * is remembered for the template, as its end-user's (or the Secret Key's) confirmation, as the import
 * completes. Into a template that requires review the import is stored `pending_review` (review-import.ts). The body's `bytes` count towards the account's quota (import-quota.ts): checked before anything
 * is written, then as they arrive. Returns the create shape. Throws validation_failed (a row's index in
 * `details[].path`; RowsInvalidError under `reject`), quota_exceeded, and whatever producing a slice throws.
 */
export async function createImport(
  ctx: ServiceContext,
  origin: ImportOrigin,
  body: { meta?: unknown; originalSchema?: unknown; rows: RowSlices | CheckedRows; bytes?: ImportBytes } & ImportOptions,
): Promise<ImportListItem | DryRunResult> {
  const rows = 'stats' in body.rows ? body.rows : checkInThread(body.rows, ctx.config.limits.rowBytes);
  let prepared: Awaited<ReturnType<typeof prepareImport>>;
  let policy: ImportPolicy;
  let options: ReturnType<typeof importOptions>;
  let room: number;
  try {
    // First: a template the import would create is a write too.
    room = await quotaRoom(ctx, origin.accountId, body.bytes?.declared ?? 0);
    prepared = await prepareImport(ctx, origin, body);
    policy = await importPolicy(ctx, origin.accountId, prepared.header.templateId);
    options = importOptions(body, policy.rules?.rules);
  } catch (error) {
    await rows.discard?.();
    throw error;
  }
  // The parse worker runs the rules beside the writes; other rows are checked here, as the writer takes them.
  const rules = policy.rules?.rules;
  const checked = rows.validateInProducer ? rows.validateInProducer(policy.rules?.schemaText) : rules && validateRows(rules, rows);
  if (options.dryRun) {
    const result = await dryRunRows(ctx, prepared.header.templateId, datasetOf(prepared.header), rules, rows, checked);
    // What a replace would remove: every missing key.
    if (result.changes && options.mode === 'replace') result.changes.removed = result.changes.missing;
    return result;
  }
  const written = checked ?? rows;
  const keyed = options.mode && rules ? { primaryKey: rules.primaryKey, mode: options.mode } : undefined;
  // A template that requires review: the import is stored pending, and counts once a reviewer approves it.
  const header: ImportHeader = policy.review ? { ...prepared.header, reviewStatus: 'pending_review' } : prepared.header;
  const stored = await writeRows(await beginImport(ctx, header, body.bytes), body.bytes ? withinQuota(ctx, written, room, body.bytes) : written, prepared.learned, checked, keyed);
  return toListItem(stored);
}

/** meta as JSON text without credentials, `counts` renamed `clientCounts`; members are copied one by one so nothing else changes. */
function storedMeta(meta: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const key of Object.keys(meta)) {
    // The client's counts are kept apart: meta.counts is what the server counted (import-writer's finish).
    const name = key === 'counts' ? 'clientCounts' : key;
    if (key === 'clientCounts' && Object.hasOwn(meta, 'counts')) continue;
    if (!UNSTORED_META.has(key)) parts.push(`${JSON.stringify(name)}:${JSON.stringify(meta[key])}`);
  }
  return `{${parts.join(',')}}`;
}
