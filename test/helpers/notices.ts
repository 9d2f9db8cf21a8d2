import type { ChangeNotices, NoticeTopic } from '../../src/db/store';

/** A notice channel shared by several nodes (as PostgreSQL's LISTEN/NOTIFY is), with a reconnect to trigger. */
export function sharedChannel() {
  const handlers = new Set<{ notice(subject: string): void; resync(): void }>();
  const channel: ChangeNotices & { reconnect(): void; subscribers(): number } = {
    crossProcess: true,
    async publish(_topic: NoticeTopic, subject: string) {
      for (const handler of handlers) handler.notice(subject);
    },
    async subscribe(_topic, handler) {
      handlers.add(handler);
      return () => {
        handlers.delete(handler);
      };
    },
    async close() {},
    reconnect: () => {
      for (const handler of handlers) handler.resync();
    },
    subscribers: () => handlers.size,
  };
  return channel;
}
