/**
 * Optional refinement through an OpenAI-compatible chat-completions endpoint.
 * Only the pairs the offline matcher is unsure about are sent; the answer must
 * be strict JSON of a fixed shape, and any failure (timeout, HTTP error, bad
 * JSON, wrong shape, unknown keys, broken one-to-one) keeps the offline answer.
 */
import { z } from 'zod';
import type { MatchResult } from './match-headers';
import type { HeaderItem, MapHeadersInput, MapHeadersOutput } from './schemas';

export interface LlmOptions {
  /** Full chat-completions URL, e.g. https://api.example.com/v1/chat/completions. */
  url: string;
  model: string;
  apiKey: string;
  /** Whole-request budget in milliseconds (default 5000). */
  timeoutMs?: number;
  /** Send example values to the model (default false: they may be personal data). */
  sendSamples?: boolean;
  fetchImpl?: typeof fetch;
}

const ChatResponse = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string() }) })).min(1),
});
const Answer = z.object({ mappings: z.record(z.string(), z.string().nullable()) }).strict();

// An answer the model vouches for is at least this confident, even if the offline score was lower.
const LLM_CONFIRMED_CONFIDENCE = 0.6;

function describe(item: HeaderItem, sendSamples: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = { key: item.key, label: item.label };
  if (item.description) out.description = item.description;
  if (sendSamples && item.samples?.length) out.samples = item.samples;
  return out;
}

function buildMessages(offline: MatchResult, input: MapHeadersInput, sendSamples: boolean) {
  const fileByKey = new Map(input.fileHeaders.map((h) => [h.key, h]));
  const schemaByKey = new Map(input.schemaHeaders.map((h) => [h.key, h]));
  const questions = offline.uncertain.map((u) => ({
    schemaHeader: describe(schemaByKey.get(u.schemaKey)!, sendSamples),
    candidates: u.candidates.map((c) => describe(fileByKey.get(c.fileKey)!, sendSamples)),
  }));
  const system =
    'You map spreadsheet column headers of an uploaded file to the headers of a template. ' +
    'For each schema header, pick the candidate file header holding the same data, or null if none does. ' +
    'Pick only among that header\'s candidates and never pick the same file key twice. ' +
    'Reply with one JSON object and nothing else, exactly of the shape ' +
    '{"mappings": {"<schema key>": "<file key>" | null}}, with one entry for every schema key asked.';
  return [
    { role: 'system', content: system },
    { role: 'user', content: JSON.stringify({ questions }) },
  ];
}

/** Checks the model's answer and merges it into the offline mappings; throws on anything invalid. */
function applyAnswer(offline: MatchResult, answer: z.infer<typeof Answer>): MapHeadersOutput {
  const asked = new Map(offline.uncertain.map((u) => [u.schemaKey, u]));
  const keys = Object.keys(answer.mappings);
  if (keys.length !== asked.size || keys.some((k) => !asked.has(k))) throw new Error('answer keys differ from the question');
  const result: MapHeadersOutput = {};
  const used = new Set<string>();
  for (const [schemaKey, mapping] of Object.entries(offline.mappings)) {
    if (asked.has(schemaKey)) continue;
    result[schemaKey] = mapping;
    used.add(mapping.fileKey);
  }
  for (const [schemaKey, fileKey] of Object.entries(answer.mappings)) {
    if (fileKey === null) continue;
    const candidate = asked.get(schemaKey)!.candidates.find((c) => c.fileKey === fileKey);
    if (!candidate) throw new Error(`"${fileKey}" is not a candidate for "${schemaKey}"`);
    if (used.has(fileKey)) throw new Error(`"${fileKey}" assigned twice`);
    used.add(fileKey);
    result[schemaKey] = { fileKey, confidence: Math.max(candidate.score, LLM_CONFIRMED_CONFIDENCE) };
  }
  return result;
}

/**
 * Ask the model about the offline matcher's uncertain pairs only. Resolves to
 * the refined mappings, or to the offline mappings on any failure; never rejects.
 */
export async function resolveWithLlm(offline: MatchResult, input: MapHeadersInput, options: LlmOptions): Promise<MapHeadersOutput> {
  if (offline.uncertain.length === 0) return offline.mappings;
  const { url, model, apiKey, timeoutMs = 5000, sendSamples = false, fetchImpl = fetch } = options;
  try {
    const response = await fetchImpl(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
      body: JSON.stringify({
        model,
        temperature: 0,
        response_format: { type: 'json_object' },
        messages: buildMessages(offline, input, sendSamples),
      }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) throw new Error(`LLM endpoint answered ${response.status}`);
    const chat = ChatResponse.parse(await response.json());
    const answer = Answer.parse(JSON.parse(chat.choices[0]!.message.content));
    return applyAnswer(offline, answer);
  } catch {
    // By contract the offline answer stands whenever the model cannot be used.
    return offline.mappings;
  }
}
