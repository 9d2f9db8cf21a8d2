import { resolveWithLlm, type LlmOptions } from './llm-resolver';
import { matchHeaders } from './match-headers';
import type { MapHeadersInput, MapHeadersOutput } from './schemas';

/**
 * Map an uploaded file's column headers to a template's headers.
 *
 * Runs the offline matcher (deterministic, no network); when `llm` is given,
 * asks that OpenAI-compatible endpoint about the uncertain pairs only and
 * falls back to the offline answer on any failure. Returns one entry per
 * matched schema key (`fileKey`, `confidence` 0-1); each file key is used at
 * most once and unmatched schema keys are left out.
 *
 * `input` must already satisfy `MapHeadersInput` (the transport validates it
 * and reports VALIDATION errors); this function itself throws no service errors.
 */
export async function mapHeaders(input: MapHeadersInput, llm?: LlmOptions): Promise<MapHeadersOutput> {
  const offline = matchHeaders(input);
  return llm ? resolveWithLlm(offline, input, llm) : offline.mappings;
}
