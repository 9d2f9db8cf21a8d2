import { parseInput } from '../validate';
import { resolveWithLlm, type LlmOptions } from './llm-resolver';
import { matchHeaders } from './match-headers';
import { MapHeadersInput, type MapHeadersOutput } from './schemas';

/**
 * Map an uploaded file's column headers to a template's headers.
 *
 * Runs the offline matcher (deterministic, no network); when `llm` is given,
 * asks that OpenAI-compatible endpoint about the uncertain pairs only and
 * falls back to the offline answer on any failure. Returns one entry per
 * matched schema key (`fileKey`, `confidence` 0-1); each file key is used at
 * most once and unmatched schema keys are left out.
 *
 * Throws validation_failed (with each issue's path, e.g. `schemaHeaders.3.key`)
 * when `input` does not satisfy `MapHeadersInput`; never fails because of the LLM.
 */
export async function mapHeaders(input: MapHeadersInput, llm?: LlmOptions): Promise<MapHeadersOutput> {
  const data = parseInput(MapHeadersInput, input);
  const offline = matchHeaders(data);
  return llm ? resolveWithLlm(offline, data, llm) : offline.mappings;
}
