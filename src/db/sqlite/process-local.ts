import { EventEmitter } from 'node:events';
import type { ChangeNotices, RateLimitStore } from '../store/store';

/**
 * The rate-limit counters of a SQLite store: one database file is served by one node, so the counts of the
 * current window stay in the process (no write per request). Each window forgets the previous one, so memory is
 * bounded by the keys that sent a request in the current window.
 */
export function createProcessRateLimits(): RateLimitStore {
  let current = -1;
  let counts = new Map<string, number>();
  return {
    async hit(keyId, windowStart) {
      if (windowStart !== current) {
        current = windowStart;
        counts = new Map();
      }
      const count = (counts.get(keyId) ?? 0) + 1;
      counts.set(keyId, count);
      return count;
    },
  };
}

/**
 * Change notices within this process. A CLI command writing the same SQLite file runs in another process, so
 * `crossProcess` is false: watchers also re-read now and then to see its changes.
 */
export function createProcessNotices(): ChangeNotices {
  const emitter = new EventEmitter();
  // Every open theme stream of an account subscribes; their number is bounded by the theme stream limits.
  emitter.setMaxListeners(0);
  return {
    crossProcess: false,
    async publish(topic, subject) {
      emitter.emit(topic, subject);
    },
    async subscribe(topic, handlers) {
      const listener = (subject: string) => handlers.notice(subject);
      emitter.on(topic, listener);
      return () => emitter.off(topic, listener);
    },
    async close() {
      emitter.removeAllListeners();
    },
  };
}
