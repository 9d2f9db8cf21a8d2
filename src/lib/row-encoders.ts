import { createCsvEncoder } from './csv';
import { createJsonArrayEncoder } from './json-array';
import { createNdjsonEncoder } from './ndjson';
import type { EncoderOptions, RowEncoder } from './row-encoder';

/** The encoder of an export format (the encoders know only the RowEncoder contract, not one another). */
export function createRowEncoder(format: 'csv' | 'ndjson' | 'json', options: EncoderOptions): RowEncoder {
  if (format === 'csv') return createCsvEncoder(options);
  if (format === 'ndjson') return createNdjsonEncoder();
  return createJsonArrayEncoder();
}
