// The rows the store hands to services, the same on every engine. Times are ISO 8601 UTC strings with
// milliseconds (they sort lexicographically: keyset cursors and range filters use them directly); JSON
// members are text, spliced into responses without parsing.

import type { DatasetMode } from './datasets';

export interface AccountRow {
  id: string;
  name: string;
  createdAt: string;
}

export interface EnvironmentRow {
  id: string;
  accountId: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
  deletedAt: string | null;
  /** Whether a Public Key session may create a template by importing into an unknown key. */
  autoCreateTemplates: boolean;
}

export interface ApiKeyRow {
  id: string;
  accountId: string;
  environmentId: string;
  kind: 'secret' | 'public';
  hash: string;
  prefix: string;
  active: boolean;
  allowedOrigins: string[];
  createdAt: string;
  lastUsedAt: string | null;
  deactivatedAt: string | null;
  /** A rolled key kept for a grace period: active until then (null: until deactivated). */
  expiresAt: string | null;
}

export interface TemplateRow {
  id: string;
  accountId: string;
  key: string;
  schema: string;
  source: string;
  metadata: string;
  createdAt: string;
  updatedAt: string;
}

export type TemplateSummaryRow = Omit<TemplateRow, 'schema'>;

export interface ImportRow {
  id: string;
  accountId: string;
  environmentId: string | null;
  templateId: string;
  /** 'writing' while rows are still being stored: never visible to readers. */
  status: 'writing' | 'complete';
  /** The node writing it (`Store.nodeId`); null once complete, or hidden for deletion. */
  writerNode: string | null;
  /** While 'writing': until when the writer's lease runs (ISO time); past it any node may remove the import. */
  leaseUntil: string | null;
  meta: string;
  originalSchema: string;
  file: string | null;
  fileId: string | null;
  endUserId: string | null;
  endUserEmail: string | null;
  endUserIp: string | null;
  importedFrom: string | null;
  sessionJti: string | null;
  rowCount: number;
  cellStats: string;
  createdAt: string;
  updatedAt: string;
  /** Whether the import counts (docs/templates.md "Review"): 'completed' unless its template requires review. */
  reviewStatus: ReviewStatus;
  /** When a reviewer approved or rejected it (null before, and for an import that needed no review). */
  reviewedAt: string | null;
  /** The reviewer's reason, when one was given. */
  reviewReason: string | null;
  /** A keyed template's import: `upsert` or `replace` (src/db/store/datasets.ts); null otherwise. */
  mode?: DatasetMode | null;
  /** What applying it changed in its dataset (DatasetChanges as JSON); null for an unkeyed template's. */
  changes?: string | null;
}

/** An import is `completed` (it counts), `pending_review` (its template requires review) or `rejected`. */
export const REVIEW_STATUSES = ['completed', 'pending_review', 'rejected'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

/** What a list page reads of an import, in the order the engines' raw list statements read it: the members of its list item (not its originalSchema or statistics, up to 1 MiB each). */
export const IMPORT_LIST_COLUMNS = ['id', 'templateId', 'meta', 'file', 'fileId', 'endUserId', 'endUserEmail', 'importedFrom', 'rowCount', 'createdAt', 'updatedAt', 'reviewStatus', 'changes'] as const;
export type ImportListRow = Pick<ImportRow, (typeof IMPORT_LIST_COLUMNS)[number]>;

/** A list statement's raw row: the values of IMPORT_LIST_COLUMNS, in that order. */
export type ImportListColumns = [string, string, string, string | null, string | null, string | null, string | null, string | null, number, string, string, ReviewStatus, string | null];

/** An ImportListRow from a list statement's raw row (both engines read list pages as arrays). */
export function importListRowOf(row: ImportListColumns): ImportListRow {
  const [id, templateId, meta, file, fileId, endUserId, endUserEmail, importedFrom, rowCount, createdAt, updatedAt, reviewStatus, changes] = row;
  return { id, templateId, meta, file, fileId, endUserId, endUserEmail, importedFrom, rowCount, createdAt, updatedAt, reviewStatus, changes };
}

/** What the detail and rows reads need of an import: all but its originalSchema (up to 1 MiB). */
export type ImportViewRow = Omit<ImportRow, 'originalSchema'>;

/**
 * One confirmer's label for a schema key of an account's template (`confirmer`: '' for a Secret Key import);
 * or, with a `fileValue`, the option an enum field's value stands for (`fileLabel`: the option value).
 */
export interface LearnedMappingRow {
  accountId: string;
  templateId: string;
  schemaKey: string;
  /** '' for a header mapping. */
  fileValue: string;
  confirmer: string;
  fileLabel: string;
  updatedAt: string;
}

/** A learned pair with who confirmed it: distinct end-users, and whether a Secret Key import did. */
export interface LearnedPairRow {
  templateId: string;
  schemaKey: string;
  /** '' for a header pair; else an enum value, and `fileLabel` its option. */
  fileValue: string;
  fileLabel: string;
  endUsers: number;
  secretKey: boolean;
  updatedAt: string;
}

/** A learned pair as listed for the operator, with its template's key. */
export type LearnedListRow = LearnedPairRow & { templateKey: string };

export interface StoredRow {
  rowIndex: number;
  /** The row object as stored: JSON text, spliced into responses without parsing. */
  data: string;
  /** An invalid row kept: its errors as JSON text `[{key, code, message}]` (null or absent: none, or not read). */
  errors?: string | null;
}

/** A row stored with errors (onInvalid `keep`) is invalid; every other row is valid. */
export type RowStatus = 'valid' | 'invalid';

/** What checking a presented key reads of its row (services/auth acceptKey). */
export type KeyCheckRow = Pick<ApiKeyRow, 'id' | 'accountId' | 'environmentId' | 'kind' | 'hash' | 'active' | 'allowedOrigins' | 'expiresAt'>;


export interface ThemeRow {
  id: string;
  accountId: string;
  name: string;
  description: string;
  lightColors: string;
  darkColors: string;
  radius: string;
  sizes: string;
  effects: string;
  createdAt: string;
  updatedAt: string;
}

export interface SessionRow {
  jti: string;
  accountId: string;
  environmentId: string;
  templateId: string | null;
  endUserId: string;
  endUserEmail: string | null;
  endUserIp: string | null;
  metadata: string;
  createdAt: string;
  expiresAt: string;
  revokedAt: string | null;
}

export interface WebhookEndpointRow {
  id: string;
  accountId: string;
  environmentId: string;
  url: string;
  description: string;
  events: string[];
  /** `whsec_` + base64: kept as issued, since every delivery is signed with it. */
  secret: string;
  active: boolean;
  disabledReason: string | null;
  failingSince: string | null;
  createdAt: string;
}

export interface WebhookDeliveryRow {
  endpointId: string;
  eventId: string;
  type: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  nextAttemptAt: string | null;
  lastAttemptAt: string | null;
  lastStatusCode: number | null;
  lastResponse: string | null;
  lastError: string | null;
  createdAt: string;
}

/** A delivery a sender holds a lease on, with what it needs to send it. */
export interface ClaimedDelivery {
  accountId: string;
  endpointId: string;
  eventId: string;
  attempts: number;
  url: string;
  secret: string;
  payload: string;
}

/** Where a resumable upload stands: bytes arriving, being turned into an import, done, or refused. */
export type UploadStatus = 'receiving' | 'processing' | 'completed' | 'failed';

export interface UploadRow {
  id: string;
  accountId: string;
  environmentId: string | null;
  endUserId: string | null;
  /** JSON: who sent it (how the import is attributed): `importedFrom`, the session's claims, the client address. */
  owner: string;
  /** JSON: the client's Upload-Metadata, decoded. */
  metadata: string;
  sizeBytes: number;
  status: UploadStatus;
  rowsProcessed: number;
  importId: string | null;
  /** JSON: the error body of a failed upload. */
  error: string | null;
  leaseNode: string | null;
  leaseUntil: string | null;
  createdAt: string;
  /** Unfinished past this time, it is gone (410, then removed). */
  expiresAt: string;
  updatedAt: string;
}
