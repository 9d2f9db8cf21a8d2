// The import's meta, built in the page (it reads location and navigator: not part of submit.ts, which the
// node tests load).
import type { Charset } from './decode';
import { formatSize } from './submit';
import type { Sheet } from './table';

/** A file as the importer read it. */
export interface Loaded {
  file: File;
  sheets: Sheet[];
  sheetIndex: number;
  csv: { charset: Charset; uncertain: boolean; delimiter: string } | undefined;
  startedAt: string;
  /** Sent whole to /v1/uploads (a large file); `partial`: only its first rows were read. */
  upload: boolean;
  partial: boolean;
}

/** The import's meta: where the rows come from and what the end-user confirmed (docs/embedding.md, Submit). */
export function importMeta(input: {
  template: { id: string; key: string } | undefined;
  loaded: Loaded;
  headerRow: number;
  counts: { totalRows: number; sentRows: number };
  mapping: Record<string, string>;
  valueMapping: Record<string, unknown>;
  locale: string;
}): Record<string, unknown> {
  const { template, loaded, counts, valueMapping } = input;
  const { file } = loaded;
  const skipped = counts.totalRows - counts.sentRows;
  return {
    ...(template ? { schemaId: template.id, schemaKey: template.key } : {}),
    sdkVersion: IMPORTD_SDK_VERSION,
    // Origin and path only: a query string may carry tokens of the host page.
    source: { kind: 'upload', referer: `${location.origin}${location.pathname}`.slice(0, 500) },
    file: { name: file.name, extension: (/\.([^.]+)$/.exec(file.name)?.[1] ?? '').toLowerCase(), mime: file.type, sizeBytes: file.size, formattedSize: formatSize(file.size), lastModified: new Date(file.lastModified).toISOString() },
    sheet: { rowCount: counts.totalRows, selectedSheetName: loaded.sheets[loaded.sheetIndex]!.name, allSheetNames: loaded.sheets.map((sheet) => sheet.name).slice(0, 100), headerRow: input.headerRow },
    counts: { totalRows: counts.totalRows, validRows: counts.sentRows, erroredRows: skipped, discardedRows: skipped },
    timings: { startedAt: loaded.startedAt, finishedAt: new Date().toISOString() },
    environment: { userAgent: navigator.userAgent.slice(0, 300), timezone: Intl.DateTimeFormat().resolvedOptions().timeZone, platform: 'web', runtime: 'browser', locale: input.locale },
    ...(loaded.csv ? { encoding: { charset: loaded.csv.charset, delimiter: loaded.csv.delimiter } } : {}),
    mapping: input.mapping,
    ...(Object.keys(valueMapping).length > 0 ? { valueMapping } : {}),
  };
}
