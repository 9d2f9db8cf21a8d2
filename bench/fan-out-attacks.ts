// The fan-out attacks of issue 41 for npm run bench:attacks: one account's Secret Key registering every
// environment and webhook it may and erasing end-users (each erasure an account-wide event), then opening
// every theme stream it may and changing its theme in loops. Both run while another account's small read is
// timed (bench/attacks.ts).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { validTheme } from '../test/helpers/fixtures';

export interface Attacker {
  url: string;
  publicKey: string;
  session: string;
  secretKey: string;
  /** The other account's Secret Key: its first theme stream must still open. */
  victimKey: string;
  /** The Origin the attacked account's Public Key allows. */
  origin: string;
  /** A Secret Key of another environment of the attacked account. */
  otherEnvironmentKey: string;
  /** The database, for CLI reads of what was stored. */
  db: string;
}

export interface Attack {
  name: string;
  prepare?: (a: Attacker) => Promise<string>;
  run: (a: Attacker, prepared: string) => Promise<string>;
}

const ERASED = 300;
/** Secret Keys of the environments the fan-out attack created, for the stream flood. */
const keys: string[] = [];
let receiver: { server: Server; url: string; received: number } | undefined;

async function call(url: string, key: string, method: string, pathname: string, body?: unknown): Promise<Response> {
  return fetch(`${url}${pathname}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** A webhook receiver in this process answering 204 at once, counting what it received. */
async function startReceiver(): Promise<NonNullable<typeof receiver>> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      state.received += 1;
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const state = { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received: 0 };
  return state;
}

export async function stopFanOutAttacks(): Promise<void> {
  if (receiver) await new Promise((resolve) => receiver!.server.close(resolve));
}

/** Runs `work(i)` for i below `count`, `concurrency` at a time. */
async function pool(count: number, concurrency: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < count) await work(next++);
  }));
}

export const FAN_OUT_ATTACKS: Attack[] = [
  {
    // What the machine gives a small read with no attack at all: the floor the figures below stand on.
    name: 'baseline: no attack for 10 s',
    run: async () => {
      await new Promise((resolve) => setTimeout(resolve, 10_000));
      return '-';
    },
  },
  {
    name: `fan-out: every env and webhook allowed, ${ERASED} erasures + ${ERASED} of nobody`,
    prepare: async (a) => {
      receiver = await startReceiver();
      keys.push(a.secretKey);
      let refusedEnv = '';
      for (let i = 0; !refusedEnv; i++) {
        const response = await call(a.url, a.secretKey, 'POST', '/v1/environments', { name: `fan-${i}`, allowedOrigins: [] });
        const body = (await response.json()) as { secretKey?: { key: string }; error?: { code: string } };
        if (response.status === 201) keys.push(body.secretKey!.key);
        else refusedEnv = `${response.status} ${body.error?.code}`;
      }
      let hooks = 0;
      let refusedHook = '';
      for (const key of keys) {
        for (;;) {
          const response = await call(a.url, key, 'POST', '/v1/webhooks', { url: receiver.url });
          if (response.status === 201) hooks += 1;
          const code = response.status === 201 ? '' : ((await response.json()) as { error: { code: string } }).error.code;
          if (code === 'limit_reached') refusedHook = `409 ${code}`;
          if (response.status !== 201) break;
        }
        if (refusedHook) break;
      }
      await pool(ERASED, 8, async (i) => void (await call(a.url, a.secretKey, 'POST', '/v1/sessions', { endUserId: `erased-${i}` })).arrayBuffer());
      return JSON.stringify({ environments: keys.length, refusedEnv, hooks, refusedHook });
    },
    run: async (a, prepared) => {
      const { environments, refusedEnv, hooks, refusedHook } = JSON.parse(prepared) as { environments: number; refusedEnv: string; hooks: number; refusedHook: string };
      await pool(2 * ERASED, 8, async (i) => {
        const who = i % 2 === 0 ? `erased-${i / 2}` : `nobody-${i}`;
        await (await call(a.url, a.secretKey, 'DELETE', `/v1/end-users/${who}`)).arrayBuffer();
      });
      // The reads go on while the sender delivers every event (or 60 s).
      const expected = ERASED * hooks;
      const until = Date.now() + 60_000;
      while (receiver!.received < expected && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 100));
      return `${environments} envs (${refusedEnv}), ${hooks} hooks (${refusedHook}), ${receiver!.received}/${expected} sent`;
    },
  },
  {
    name: 'theme flood: every stream allowed, 4 PUT /v1/themes loops for 10 s',
    prepare: async (a) => {
      await (await call(a.url, a.secretKey, 'POST', '/v1/themes', validTheme({ name: 'flood-0' }))).arrayBuffer();
      return '';
    },
    run: async (a) => {
      const streams: AbortController[] = [];
      let refused = '';
      // Through every key the account holds, 50 at most each, until the server refuses.
      for (const key of keys.length > 0 ? keys : [a.secretKey]) {
        for (let i = 0; i < 50 && !refused; i++) {
          const abort = new AbortController();
          const response = await fetch(`${a.url}/v1/themes/events`, { headers: { Authorization: `Bearer ${key}` }, signal: abort.signal });
          if (response.status !== 200) {
            refused = `${response.status} ${((await response.json()) as { error: { code: string } }).error.code}`;
            break;
          }
          streams.push(abort);
          void response.body!.pipeTo(new WritableStream()).catch(() => undefined);
        }
        if (refused) break;
      }
      let puts = 0;
      const until = Date.now() + 10_000;
      await Promise.all(Array.from({ length: 4 }, async () => {
        while (Date.now() < until) {
          await (await call(a.url, a.secretKey, 'PUT', '/v1/themes', validTheme({ name: `flood-${++puts}` }))).arrayBuffer();
        }
      }));
      const victim = new AbortController();
      const first = await fetch(`${a.url}/v1/themes/events`, { headers: { Authorization: `Bearer ${a.victimKey}` }, signal: victim.signal });
      victim.abort();
      for (const abort of streams) abort.abort();
      return `${streams.length} streams (${refused || 'none refused'}), ${puts} PUTs, other account's stream ${first.status}`;
    },
  },
];
