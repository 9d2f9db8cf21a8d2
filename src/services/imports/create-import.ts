import type { SessionClaims } from '../auth';
import type { ServiceContext } from '../context';
import { learnedWrite } from '../mapping/learned-mappings';
import { checkEnvelopeLimits } from '../limits';
import { parseInput } from '../validate';
import type { LearnedMappingsWrite } from '../../db/store';
import { beginImport, checkInThread, writeRows, type CheckedRows, type ImportHeader, type RowSlices } from './import-writer';
import { resolveTemplate } from './resolve-template';
import { ImportEnvelope, type ImportListItem } from './schemas';
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
  }, origin.session?.templateId);
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
  };
  return { header, learned: learnedWrite(ctx, { accountId: origin.accountId, templateId, endUserId: session?.endUserId }, parsed.meta?.mapping) };
}

/**
 * Creates an import: template resolution, row checks, statistics and an atomic write of the rows, which
 * arrive in slices (`sliceRows` for an array), unchecked (checked here, as the writer asks for them) or
 * already checked (by the parse worker). A `meta.mapping` is remembered for the template, as its end-user's
 * (or the Secret Key's) confirmation, as the import completes.
 * Returns the create shape. Throws validation_failed (a row's index in `details[].path`), and whatever
 * producing a slice throws.
 */
export async function createImport(
  ctx: ServiceContext,
  origin: ImportOrigin,
  body: { meta?: unknown; originalSchema?: unknown; rows: RowSlices | CheckedRows },
): Promise<ImportListItem> {
  const rows = 'stats' in body.rows ? body.rows : checkInThread(body.rows, ctx.config.limits.rowBytes);
  let prepared: Awaited<ReturnType<typeof prepareImport>>;
  try {
    prepared = await prepareImport(ctx, origin, body);
  } catch (error) {
    await rows.discard?.();
    throw error;
  }
  const stored = await writeRows(await beginImport(ctx, prepared.header), rows, prepared.learned);
  return toListItem(stored);
}

/** meta as JSON text without credentials; members are copied one by one so nothing else changes. */
function storedMeta(meta: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const key of Object.keys(meta)) {
    if (!UNSTORED_META.has(key)) parts.push(`${JSON.stringify(key)}:${JSON.stringify(meta[key])}`);
  }
  return `{${parts.join(',')}}`;
}
