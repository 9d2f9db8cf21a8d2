import type { Mapping } from './submit';

/** Where the file's rows are and how to read them, as the end-user confirmed them in the mapping step. */
export interface FileReading {
  templateId: string;
  kind: 'csv' | 'xlsx';
  /** XLSX: the sheet's name. */
  sheet: string | undefined;
  csv: { charset: string; delimiter: string } | undefined;
  /** 0-based, as the element counts. */
  headerRow: number;
  /** The header row's cells as written in the file (the server names columns by them). */
  header: string[];
  /** Field key (or kept column's label) -> column. */
  mapping: Mapping;
}

/**
 * The column the server cannot name (an empty header cell mapped to a field, or a header written twice: the
 * server refuses such a file), or -1. A CSV's empty header cells count as the same name.
 */
export function unnamedColumn(reading: FileReading): number {
  const used = new Set(Object.values(reading.mapping));
  return reading.header.findIndex((cell, column) => (cell === '' && used.has(column)) || ((cell !== '' || reading.kind === 'csv') && reading.header.indexOf(cell) !== column));
}

/** tus `Upload-Metadata` (docs/api.md, Resumable uploads): the file and how the server reads it. */
export function uploadMetadata(file: File, reading: FileReading): Record<string, string> {
  const mapping = Object.fromEntries(Object.entries(reading.mapping).flatMap(([key, column]) => (column >= 0 ? [[key, reading.header[column]!]] : [])));
  return {
    filename: file.name,
    filetype: file.type,
    templateId: reading.templateId,
    format: reading.kind,
    ...(reading.sheet !== undefined && { sheet: reading.sheet }),
    ...(reading.csv && { charset: reading.csv.charset, delimiter: reading.csv.delimiter === '\t' ? 'tab' : reading.csv.delimiter }),
    headerRow: String(reading.headerRow + 1),
    mapping: JSON.stringify(mapping),
  };
}
