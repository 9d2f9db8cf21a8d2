/**
 * Optional refinement through an OpenAI-compatible chat-completions endpoint.
 * Only the pairs the offline matcher is unsure about are sent, as many as fit
 * in the prompt cap; the answer must be strict JSON of a fixed shape, and any
 * failure (timeout, HTTP error, bad JSON, wrong shape, unknown keys, broken
 * one-to-one) keeps the offline answer. Valid answers are cached by a hash of
 * the request, so a repeated call does not cost the operator a second prompt.
 */
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import type { MatchResult, UncertainPair } from './match-headers';
import type { HeaderItem, MapHeadersInput, MapHeadersOutput } from './schemas';
import { setOwn } from '../../lib/own-member';

/** The model's checked answers, keyed by the SHA-256 of the request body sent for them. */
export type LlmAnswerCache = LRUCache<string, Answer>;

/** A bounded cache of the model's answers (`entries` > 0). */
export function createLlmAnswerCache(entries: number): LlmAnswerCache {
  return new LRUCache<string, Answer>({ max: entries });
}

export interface LlmOptions {
  /** Full chat-completions URL, e.g. https://api.example.com/v1/chat/completions. */
  url: string;
  model: string;
  apiKey: string;
  /** Whole-request budget in milliseconds (default 5000). */
  timeoutMs?: number;
  /** Send example values to the model (default false: they may be personal data). */
  sendSamples?: boolean;
  /** Largest request body sent (default 64 KiB): the uncertain pairs past it are left to the offline answer. */
  maxPromptBytes?: number;
  cache?: LlmAnswerCache;
  fetchImpl?: typeof fetch;
}

const ChatResponse = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string() }) })).min(1),
});
const Answer = z.object({ mappings: z.record(z.string(), z.string().nullable()) }).strict();
type Answer = z.infer<typeof Answer>;

// An answer the model vouches for is at least this confident, even if the offline score was lower.
const LLM_CONFIRMED_CONFIDENCE = 0.6;

function describe(item: HeaderItem, sendSamples: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = { key: item.key, label: item.label };
  if (item.description) out.description = item.description;
  if (sendSamples && item.samples?.length) out.samples = item.samples;
  return out;
}

const SYSTEM_PROMPT =
  'You map spreadsheet column headers of an uploaded file to the headers of a template. ' +
  'For each schema header, pick the candidate file header holding the same data, or null if none does. ' +
  'Pick only among that header\'s candidates and never pick the same file key twice. ' +
  'Reply with one JSON object and nothing else, exactly of the shape ' +
  '{"mappings": {"<schema key>": "<file key>" | null}}, with one entry for every schema key asked.';

/** Bytes a value adds once serialised as JSON inside the JSON string of a message's content. */
const embeddedBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(JSON.stringify(value))) - 2;

/**
 * The request body for the uncertain pairs that fit within `maxBytes` (in the matcher's order, skipping
 * any that would not fit), and the pairs it asks about; no body when none fits.
 */
function buildRequest(offline: MatchResult, input: MapHeadersInput, model: string, sendSamples: boolean, maxBytes: number) {
  const fileByKey = new Map(input.fileHeaders.map((h) => [h.key, h]));
  const schemaByKey = new Map(input.schemaHeaders.map((h) => [h.key, h]));
  const request = (questions: unknown[]) => ({
    model,
    temperature: 0,
    response_format: { type: 'json_object' },
    messages: [
      { role: 'system', content: SYSTEM_PROMPT },
      { role: 'user', content: JSON.stringify({ questions }) },
    ],
  });
  let bytes = Buffer.byteLength(JSON.stringify(request([])));
  const questions: unknown[] = [];
  const asked: UncertainPair[] = [];
  for (const u of offline.uncertain) {
    const question = {
      schemaHeader: describe(schemaByKey.get(u.schemaKey)!, sendSamples),
      candidates: u.candidates.map((c) => describe(fileByKey.get(c.fileKey)!, sendSamples)),
    };
    const added = embeddedBytes(question) + (questions.length > 0 ? 1 : 0);
    if (bytes + added > maxBytes) continue;
    bytes += added;
    questions.push(question);
    asked.push(u);
  }
  return asked.length === 0 ? undefined : { body: JSON.stringify(request(questions)), asked };
}

/** Checks the model's answer and merges it into the offline mappings; throws on anything invalid. */
function applyAnswer(offline: MatchResult, pairs: UncertainPair[], answer: Answer): MapHeadersOutput {
  const asked = new Map(pairs.map((u) => [u.schemaKey, u]));
  const keys = Object.keys(answer.mappings);
  if (keys.length !== asked.size || keys.some((k) => !asked.has(k))) throw new Error('answer keys differ from the question');
  const result: MapHeadersOutput = {};
  const used = new Set<string>();
  for (const [schemaKey, mapping] of Object.entries(offline.mappings)) {
    if (asked.has(schemaKey)) continue;
    setOwn(result, schemaKey, mapping);
    used.add(mapping.fileKey);
  }
  for (const [schemaKey, fileKey] of Object.entries(answer.mappings)) {
    if (fileKey === null) continue;
    const candidate = asked.get(schemaKey)!.candidates.find((c) => c.fileKey === fileKey);
    if (!candidate) throw new Error(`"${fileKey}" is not a candidate for "${schemaKey}"`);
    if (used.has(fileKey)) throw new Error(`"${fileKey}" assigned twice`);
    used.add(fileKey);
    setOwn(result, schemaKey, { fileKey, confidence: Math.max(candidate.score, LLM_CONFIRMED_CONFIDENCE) });
  }
  return result;
}

async function ask(url: string, apiKey: string, body: string, timeoutMs: number, fetchImpl: typeof fetch): Promise<Answer> {
  const response = await fetchImpl(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
    body,
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!response.ok) throw new Error(`LLM endpoint answered ${response.status}`);
  const chat = ChatResponse.parse(await response.json());
  return Answer.parse(JSON.parse(chat.choices[0]!.message.content));
}

/**
 * Ask the model about the offline matcher's uncertain pairs only. Resolves to
 * the refined mappings, or to the offline mappings on any failure; never rejects.
 */
export async function resolveWithLlm(offline: MatchResult, input: MapHeadersInput, options: LlmOptions): Promise<MapHeadersOutput> {
  const { url, model, apiKey, timeoutMs = 5000, sendSamples = false, maxPromptBytes = 64 * 1024, cache, fetchImpl = fetch } = options;
  const request = buildRequest(offline, input, model, sendSamples, maxPromptBytes);
  if (!request) return offline.mappings;
  // The URL is part of the key: the same prompt to another endpoint is another question.
  const cacheKey = createHash('sha256').update(url).update('\0').update(request.body).digest('hex');
  try {
    // A cached answer is checked again: the same questions may come with other sure pairs, which it could clash with.
    const answer = cache?.get(cacheKey) ?? (await ask(url, apiKey, request.body, timeoutMs, fetchImpl));
    const mappings = applyAnswer(offline, request.asked, answer);
    cache?.set(cacheKey, answer);
    return mappings;
  } catch {
    // By contract the offline answer stands whenever the model cannot be used.
    return offline.mappings;
  }
}
