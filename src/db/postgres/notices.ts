import pg from 'pg';
import type { ChangeNotices, NoticeTopic } from '../store';

type Handlers = { notice(subject: string): void; resync(): void };

/** The PostgreSQL channel of a topic (LISTEN/NOTIFY names). */
const channelOf = (topic: NoticeTopic) => `importd_${topic}`;
const RECONNECT_MS = 1_000;

/**
 * Change notices over LISTEN/NOTIFY: `publish` is one `pg_notify` on the pool (delivered to every listening
 * node, this one included, when the statement commits); listening takes one dedicated connection of its own,
 * opened at the first subscription (a CLI command that only publishes never opens it). When that connection
 * drops, notices sent meanwhile are lost: it reconnects every RECONNECT_MS and then calls every subscriber's
 * `resync`, so each re-reads what it watches and no change is missed.
 */
export function createPgNotices(pool: pg.Pool): ChangeNotices {
  const subscribers = new Map<NoticeTopic, Set<Handlers>>();
  let listener: Promise<pg.Client> | undefined;
  let retry: NodeJS.Timeout | undefined;
  let closed = false;

  const dispatch = (message: pg.Notification) => {
    for (const [topic, handlers] of subscribers) {
      if (channelOf(topic) !== message.channel) continue;
      for (const handler of handlers) handler.notice(message.payload ?? '');
    }
  };

  const connect = async (): Promise<pg.Client> => {
    const client = new pg.Client(pool.options);
    client.on('notification', dispatch);
    client.on('error', () => undefined);
    client.once('end', () => {
      listener = undefined;
      reconnect();
    });
    await client.connect();
    for (const topic of subscribers.keys()) await client.query(`LISTEN ${channelOf(topic)}`);
    return client;
  };

  /** The listening connection, opened (once) when first needed; a failed attempt is retried by the next call. */
  const listening = (): Promise<pg.Client> => {
    listener ??= connect().catch((error: unknown) => {
      listener = undefined;
      throw error;
    });
    return listener;
  };

  const reconnect = () => {
    if (closed || retry || subscribers.size === 0) return;
    retry = setTimeout(() => {
      retry = undefined;
      listening().then(
        () => {
          for (const handlers of subscribers.values()) for (const handler of handlers) handler.resync();
        },
        () => reconnect(),
      );
    }, RECONNECT_MS);
    retry.unref();
  };

  return {
    crossProcess: true,
    async publish(topic, subject) {
      await pool.query('SELECT pg_notify($1, $2)', [channelOf(topic), subject]);
    },
    async subscribe(topic, handlers) {
      let set = subscribers.get(topic);
      if (!set) subscribers.set(topic, (set = new Set()));
      set.add(handlers);
      const stop = () => {
        set.delete(handlers);
      };
      try {
        // LISTEN again is a no-op: this one makes sure the channel is heard before the promise resolves.
        await (await listening()).query(`LISTEN ${channelOf(topic)}`);
      } catch (error) {
        stop();
        throw error;
      }
      return stop;
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      const client = await listener?.catch(() => undefined);
      await client?.end().catch(() => undefined);
    },
  };
}
