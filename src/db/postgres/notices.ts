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

  const connect = async (resync: boolean): Promise<pg.Client> => {
    const client = new pg.Client(pool.options);
    client.on('notification', dispatch);
    const lost = () => {
      client.removeAllListeners('notification');
      listener = undefined;
      if (!closed) scheduleReconnect();
    };
    client.on('error', () => undefined);
    client.on('end', lost);
    await client.connect();
    for (const topic of subscribers.keys()) await client.query(`LISTEN ${channelOf(topic)}`);
    if (resync) for (const handlers of subscribers.values()) for (const handler of handlers) handler.resync();
    return client;
  };

  const scheduleReconnect = () => {
    if (retry || subscribers.size === 0) return;
    retry = setTimeout(() => {
      retry = undefined;
      listener = connect(true);
      listener.catch(() => {
        listener = undefined;
        if (!closed) scheduleReconnect();
      });
    }, RECONNECT_MS);
    retry.unref();
  };

  const listen = (topic: NoticeTopic) => {
    if (!listener) {
      listener = connect(false);
      listener.catch(() => {
        listener = undefined;
        scheduleReconnect();
      });
      return;
    }
    // Already connected (or connecting): add the channel once the connection is up.
    listener.then((client) => client.query(`LISTEN ${channelOf(topic)}`)).catch(() => undefined);
  };

  return {
    crossProcess: true,
    async publish(topic, subject) {
      await pool.query('SELECT pg_notify($1, $2)', [channelOf(topic), subject]);
    },
    subscribe(topic, handlers) {
      let set = subscribers.get(topic);
      if (!set) {
        subscribers.set(topic, (set = new Set()));
        listen(topic);
      }
      set.add(handlers);
      return () => {
        set.delete(handlers);
      };
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      const client = await listener?.catch(() => undefined);
      await client?.end().catch(() => undefined);
    },
  };
}
