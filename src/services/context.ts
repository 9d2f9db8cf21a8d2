import type { Config } from '../config/config';
import type { Clock } from '../core/clock';
import type { Store } from '../db/store';
import type { ParsePool } from './imports/parse-pool';
import type { LlmAnswerCache } from './mapping/llm-resolver';
import type { ThemeEvents } from './themes/theme-events';
import type { MappingWorkLimiter } from './mapping/work-limiter';
import type { WebhookWake } from './webhooks/events';

/** What every service function receives: storage (`store`, whichever engine), time, settings and the session signing secret. */
export interface ServiceContext {
  store: Store;
  clock: Clock;
  config: Config;
  sessionSecret: Uint8Array;
  /** When each API key's lastUsedAt was last written by this process (writes are throttled). */
  keyTouchedAt: Map<string, number>;
  /** The worker thread that parses large JSON import bodies off the request thread. */
  parsePool: ParsePool;
  /** Bounds the long map-headers calls in flight in this process. */
  mappingWork: MappingWorkLimiter;
  /** The header-mapping LLM's answers by request (absent without an LLM or with its cache disabled). */
  llmAnswers?: LlmAnswerCache;
  /** Open theme streams of this process, told when a theme changes. */
  themeEvents: ThemeEvents;
  /** Told when this process writes a webhook event, so its sender starts at once. */
  webhookWake: WebhookWake;
}
