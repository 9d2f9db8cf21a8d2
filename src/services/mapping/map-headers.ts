import type { ServiceContext } from '../context';
import { parseInput } from '../validate';
import { resolveWithLlm } from './llm-resolver';
import { matchHeaderSteps } from './match-headers';
import { MapHeadersInput, type MapHeadersOutput } from './schemas';
import { runInSlices } from './steps';

/**
 * Map an uploaded file's column headers to a template's headers.
 *
 * Runs the offline matcher (deterministic, no network) in slices on the
 * request thread, after checking its pairwise cost against
 * `config.mapHeadersBudget`; when an LLM is configured, asks it about the
 * uncertain pairs only (prompt capped, answers cached) and falls back to the
 * offline answer on any failure. Returns one entry per matched schema key
 * (`fileKey`, `confidence` 0-1); each file key is used at most once and
 * unmatched schema keys are left out.
 *
 * Throws validation_failed (with each issue's path, e.g. `schemaHeaders.3.key`)
 * when `input` does not satisfy `MapHeadersInput` or is too much work; never
 * fails because of the LLM.
 */
export async function mapHeaders(ctx: ServiceContext, input: MapHeadersInput): Promise<MapHeadersOutput> {
  const data = parseInput(MapHeadersInput, input);
  const offline = await runInSlices(matchHeaderSteps(data, { budget: ctx.config.mapHeadersBudget }));
  const { llm } = ctx.config;
  return llm ? resolveWithLlm(offline, data, { ...llm, cache: ctx.llmAnswers }) : offline.mappings;
}
