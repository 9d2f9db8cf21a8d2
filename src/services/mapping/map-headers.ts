import type { ServiceContext } from '../context';
import { parseInput } from '../validate';
import { planLearned, withSuggestions } from './learned-suggestions';
import { resolveWithLlm } from './llm-resolver';
import { matchHeaderSteps } from './match-headers';
import { MapHeadersInput, type HeaderMapping, type MapHeadersOutput } from './schemas';
import { runInSlices } from './steps';

/**
 * A call of at most 50 x 50 headers (an importer's) computes without a turn from ctx.mappingWork unless its
 * pairwise cost (match-headers.ts) passes ~50 ms of work: 50 x 50 real headers cost up to ~300 000 (the dev
 * sets' densest calls scaled to 2 500 pairs), 50 x 50 labels of junk words several million.
 */
const NEVER_QUEUED_PAIRS = 2500;
const NEVER_QUEUED_COST = 1_000_000;

/**
 * Map an uploaded file's column headers to a template's headers for the account.
 *
 * Labels confirmed for the template (`meta.mapping` of its imports) are
 * weighed first, and values confirmed for its enum fields (`meta.valueMapping`)
 * come back with their field's entry (`values`) (learned-suggestions.ts: preferred at 0.97 once confirmed by
 * a Secret Key import or several end-users, else a 0.9 suggestion, never over
 * an exact-name match; `source: "learned"`); the other headers are matched:
 * Runs the offline matcher (deterministic, no network) in slices on the
 * request thread, after checking its pairwise cost against
 * `config.mapHeadersBudget` (a call longer than one slice waits its turn
 * among `config.mapHeadersConcurrency` unless it is small: ctx.mappingWork); when an LLM is configured, asks it about the
 * uncertain pairs only (prompt capped, answers cached) and falls back to the
 * offline answer on any failure. Returns one entry per matched schema key
 * (`fileKey`, `confidence` 0-1); each file key is used at most once and
 * unmatched schema keys are left out.
 *
 * Throws validation_failed (with each issue's path, e.g. `schemaHeaders.3.key`)
 * when `input` does not satisfy `MapHeadersInput` or is too much work,
 * rate_limited when too many long calls already wait in this process,
 * template_not_allowed when a session bound to a template (`boundTemplateId`)
 * names another; never fails because of the LLM.
 */
export async function mapHeaders(ctx: ServiceContext, accountId: string, input: MapHeadersInput, boundTemplateId?: string | null): Promise<MapHeadersOutput> {
  const data = parseInput(MapHeadersInput, input);
  const { learned, rest, suggestions, values } = await planLearned(ctx, accountId, data, boundTemplateId);
  // Small calls never queue: whether work outlasts its first slice depends on the machine's load, and an
  // importer's ordinary call must not get a 429 because long calls of others fill the queue. A small call
  // whose cost, known once its headers are analysed, proves large queues from then on.
  const pairs = rest.schemaHeaders.length * rest.fileHeaders.length;
  let cost: number | undefined;
  const steps = matchHeaderSteps(rest, { budget: ctx.config.mapHeadersBudget, onCost: (c) => (cost = c) });
  const queued = () => pairs > NEVER_QUEUED_PAIRS || (cost !== undefined && cost > NEVER_QUEUED_COST);
  const offline = await runInSlices(steps, { limiter: ctx.mappingWork, queued });
  const { llm } = ctx.config;
  const matched = withSuggestions(llm ? await resolveWithLlm(offline, rest, { ...llm, cache: ctx.llmAnswers }) : offline.mappings, suggestions);
  // Entries, not assignments: a schema key may be "__proto__".
  const entries: [string, HeaderMapping][] = [];
  for (const { key } of data.schemaHeaders) {
    const mapping = learned.get(key) ?? matched.get(key);
    const learnedValues = values.get(key);
    if (mapping) entries.push([key, learnedValues ? { ...mapping, values: learnedValues } : mapping]);
  }
  return Object.fromEntries(entries);
}
