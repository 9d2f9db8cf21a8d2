import type { Limits } from '../../config/config';
import type { RowTextForm, RowTexts } from '../../db/store';
import type { ErrorCode, ErrorDetail, RowErrorItem } from '../errors';
import type { CellStats, ImportCounts } from './schemas';

/** What the request thread sends the parse worker: one JSON body, transferred (not copied). */
export interface WorkerRequest {
  id: number;
  body: ArrayBuffer;
  /** Int32Array over it: [CREDITS] slices the worker may still send, [CANCELLED] 1 once nobody reads them. */
  control: SharedArrayBuffer;
  limits: Limits;
  /** The form of the rows' JSON texts the store takes (utf8: transferred, never copied on their way back). */
  textForm: RowTextForm;
}

/**
 * What the request thread sends once the body's head is read and its template known: the template's schema
 * (JSON text) when it declares rules to run, null when not. The worker checks every row against those rules
 * (validateRows) before sending it, so the rules run beside the writes.
 */
export interface WorkerRules {
  id: number;
  schemaText: string | null;
}

/**
 * Flow control: the worker sends a slice only while it holds a credit and the request thread returns one
 * per slice it takes, so at most SLICES_IN_FLIGHT slices wait in memory, however fast the worker parses.
 */
export const SLICES_IN_FLIGHT = 4;
export const CREDITS = 0;
export const CANCELLED = 1;

export interface WorkerError {
  code: ErrorCode;
  message: string;
  details?: ErrorDetail[];
  /** A refused import's invalid cells (RowsInvalidError). */
  rowErrors?: { errors: RowErrorItem[]; errorCount: number };
}

/**
 * What the parse worker answers, in order: head, rows (one message a slice; sent once WorkerRules has come),
 * then end (with the server's counts when rules ran) — or error at any point.
 */
export type WorkerMessage =
  | { id: number; type: 'head'; meta: unknown; originalSchema: unknown; mode: unknown; dryRun: unknown }
  | { id: number; type: 'rows'; rows: RowTexts }
  | { id: number; type: 'end'; stats: CellStats; validated?: { counts: ImportCounts; errorSummary: string | null } }
  | { id: number; type: 'error'; error: WorkerError };
