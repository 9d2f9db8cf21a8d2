import type { Config } from '../config/config';
import type { Clock } from '../core/clock';
import type { Store } from '../db/store';
import type { ExportSlots } from './imports/export-slots';
import type { ParsePool } from './imports/parse-pool';
import type { LlmAnswerCache } from './mapping/llm-resolver';
import type { ThemeEvents } from './themes/theme-events';
import type { MappingWorkLimiter } from './mapping/work-limiter';
import type { WebhookWake } from './webhooks/webhook-wake';

/**
 * What every service function receives: storage (`store`, whichever engine), time, settings and the session
 * signing secret.
 *
 * Several nodes may share one database (DESIGN.md "Storage engines"), so nothing here may hold state another
 * node could contradict. What is kept in the process, and why each is safe:
 * - `sessionSecret`: stored once in the database (the first node to start writes it, the others read it);
 *   rotated secrets, sessions, revocations, keys and their rolls, themes and learned mappings are read from
 *   the store on every use, never cached, so a change on one node holds on every node at once.
 * - `keyTouchedAt`: only throttles this node's writes of a key's `lastUsedAt` (never moved backwards).
 * - `parsePool`, `mappingWork`, `exportSlots`: bounds of this node's own CPU and memory, per node by design.
 * - `llmAnswers`: answers to identical LLM requests; nothing stored depends on them, nothing invalidates them.
 * - `themeEvents`: this node's open streams, woken by the store's change notices (which reach every node).
 * Rate-limit counters, leases and change notices are in the store (`rateLimits`, `locks`, `notices`).
 */
export interface ServiceContext {
  store: Store;
  clock: Clock;
  config: Config;
  sessionSecret: Uint8Array;
  /** When each API key's lastUsedAt was last written by this node (writes are throttled). */
  keyTouchedAt: Map<string, number>;
  /** The worker thread that parses large JSON import bodies off the request thread. */
  parsePool: ParsePool;
  /** Bounds the long map-headers calls in flight in this process. */
  mappingWork: MappingWorkLimiter;
  /** Bounds the exports each account streams at once from this process. */
  exportSlots: ExportSlots;
  /** The header-mapping LLM's answers by request (absent without an LLM or with its cache disabled). */
  llmAnswers?: LlmAnswerCache;
  /** Open theme streams of this process, told when a theme changes. */
  themeEvents: ThemeEvents;
  /** Told when this process writes a webhook event, so its sender starts at once. */
  webhookWake: WebhookWake;
}
