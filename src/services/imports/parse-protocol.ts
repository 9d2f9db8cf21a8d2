import type { ErrorCode, ErrorDetail } from '../errors';
import type { CellStats } from './schemas';

/** What the request thread sends the parse worker: one JSON body, transferred (not copied). */
export interface WorkerRequest {
  id: number;
  body: ArrayBuffer;
}

export interface WorkerError {
  code: ErrorCode;
  message: string;
  details?: ErrorDetail[];
}

/** What the parse worker answers, in order: head, rows (one message a slice), then end — or error at any point. */
export type WorkerMessage =
  | { id: number; type: 'head'; meta: unknown; originalSchema: unknown }
  | { id: number; type: 'rows'; texts: string[] }
  | { id: number; type: 'end'; stats: CellStats }
  | { id: number; type: 'error'; error: WorkerError };
