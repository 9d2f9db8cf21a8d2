import type { Credentials } from './api';
import type { Translator } from './i18n/translate';
import type { Loaded } from './import-meta';
import { importByUpload } from './resumable';
import type { Mapping } from './submit';
import { unnamedColumn, uploadMetadata, type FileReading } from './upload-metadata';
import { busyView } from './views';

/** Files the browser reads whole (all of an XLSX, a CSV below UPLOAD_FROM_BYTES) are refused above this size. */
const MAX_FILE_BYTES = 200 * 1024 * 1024;
/**
 * Files of this size or more (the `upload-from` attribute changes it) are sent whole to /v1/uploads, resumable,
 * and read by the server; the mapping step reads only the first HEAD_BYTES of a CSV. Smaller files keep the
 * values and review steps: read, checked and fixed in the page, then posted as rows.
 */
const UPLOAD_FROM_BYTES = 20 * 1024 * 1024;
const HEAD_BYTES = 512 * 1024;

/**
 * How the page reads `file`: whether it is sent whole to the server (`uploadFrom`: the `upload-from` attribute),
 * how many of its bytes the page reads, and whether that is only its head. Throws for a file too large to read.
 */
export function pageReading(file: File, kind: 'csv' | 'xlsx', uploadFrom: string | null, t: Translator): { upload: boolean; headBytes: number; partial: boolean } {
  const given = Number(uploadFrom ?? NaN);
  const upload = file.size >= (Number.isFinite(given) && given >= 0 ? given : UPLOAD_FROM_BYTES);
  if (file.size > MAX_FILE_BYTES && (kind === 'xlsx' || !upload)) throw new Error(t.t('tooLarge', { limit: t.size(MAX_FILE_BYTES) }));
  return { upload, headBytes: upload ? HEAD_BYTES : Infinity, partial: upload && kind === 'csv' && file.size > HEAD_BYTES };
}

/** What the mapping step confirmed of a file sent whole. */
export interface ConfirmedReading {
  templateId: string;
  headerRow: number;
  mapping: Mapping;
  /** The columns' labels as the mapping showed them (an error names the column by it). */
  headers: string[];
}

/** The element's part the upload draws on: its view, the step shown, and how a step is shown. */
export interface UploadScreen {
  readonly view: HTMLElement;
  shown(): string | undefined;
  show(step: 'submitting' | 'processing', html: string): void;
}

/**
 * How the server is to read the file: its sheet, charset, delimiter, header row and mapping as the end-user
 * confirmed them. Throws, before anything is sent, when a mapped column has no name the server can read it by.
 */
export function confirmedReading(loaded: Loaded, confirmed: ConfirmedReading, t: Translator): FileReading {
  const { csv, sheets, sheetIndex } = loaded;
  const reading: FileReading = {
    templateId: confirmed.templateId,
    kind: csv ? 'csv' : 'xlsx',
    sheet: csv ? undefined : sheets[sheetIndex]!.name,
    csv,
    headerRow: confirmed.headerRow,
    header: sheets[sheetIndex]!.rows.row(confirmed.headerRow),
    mapping: confirmed.mapping,
  };
  const unnamed = unnamedColumn(reading);
  if (unnamed >= 0) throw new Error(t.t('unnamedColumn', { column: confirmed.headers[unnamed] ?? '' }));
  return reading;
}

/**
 * A large file: sent whole to /v1/uploads (resumable, also after a page reload), read into the import by the
 * server with the confirmed reading; the values and review steps are the server's (the template's rules and
 * `onInvalid`). Progress in bytes, then in rows read; a refused file throws the server's error.
 */
export async function sendWholeFile(credentials: Credentials, file: File, reading: FileReading, t: Translator, screen: UploadScreen, signal: AbortSignal): Promise<{ importId: string; rowCount: number }> {
  screen.show('submitting', busyView(t, t.t('uploading'), 0));
  const status = () => screen.view.querySelector('[role=status]')!;
  const progress = {
    resuming: () => (status().textContent = t.t('resuming')),
    bytes: (sent: number, total: number) => {
      screen.view.querySelector('progress')?.setAttribute('value', String(sent / total));
      status().textContent = t.t('sentBytes', { sent: t.size(sent), total: t.size(total) });
    },
    rows: (count: number) => {
      if (screen.shown() !== 'processing') screen.show('processing', busyView(t, ''));
      status().textContent = t.t('rowsRead', { count });
    },
  };
  return importByUpload(credentials, file, uploadMetadata(file, reading), progress, signal);
}
