export { cleanAbandonedImports } from './clean-abandoned';
export { createImport, prepareImportHeader, type ImportOrigin } from './create-import';
export { EXPORT_CHUNK_ROWS, exportRows, type RowExport } from './export-rows';
export { getImport } from './get-import';
export { beginImport, SLICE_ROWS, sliceRows, writeRows, type ImportHeader, type ImportWriter, type RowSlices } from './import-writer';
export { listImports } from './list-imports';
export { listRows } from './list-rows';
export { loadImport, type LoadImportInput } from './load-import';
export * from './schemas';
