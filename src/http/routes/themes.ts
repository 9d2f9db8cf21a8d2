import { z } from '@hono/zod-openapi';
import { streamSSE } from 'hono/streaming';
import { createTheme, getTheme, openThemeStream, Theme, ThemeInput, updateTheme, type Theme as ThemeView } from '../../services/themes';
import { MAX_STREAMS_PER_ACCOUNT, MAX_STREAMS_PER_CLIENT, MAX_STREAMS_PER_KEY, THEME_POLL_MS } from '../../services/themes/theme-events';
import { clientAddress } from '../client-address';
import { presentedKey, PUBLIC_KEY_HEADER } from '../credentials';
import type { AppDeps } from '../env';
import { noneMatchHits, strongEtag } from '../etag';
import { createRouter, defineRoute } from '../route';
import { errorResponses, jsonBody, jsonResponse } from '../schemas';
import { respond, respondJson, setHeader } from '../respond';

export function themeRoutes(deps: AppDeps) {
  const { ctx } = deps;
  const router = createRouter();
  const etagHeader = { ETag: { description: 'strong entity tag of the theme', schema: { type: 'string' as const } } };

  const create = defineRoute(deps, 'secret', {
    method: 'post',
    path: '/themes',
    tags: ['Themes'],
    operationId: 'createTheme',
    description:
      "Secret Key. Creates the account's one theme (all members required); 409 when the account already has one.",
    summary: "Create the account's theme (one per account)",
    request: { body: jsonBody(ThemeInput) },
    responses: { 201: { ...jsonResponse(Theme, 'The theme'), headers: etagHeader }, ...errorResponses(400, 409, 413, 415) },
  });
  router.openapi(create, async (c) => {
    const theme = await createTheme(ctx, c.var.caller.principal.accountId, c.req.valid('json'));
    setHeader(c, 'ETag', etagOf(theme));
    return respondJson(c, theme, 201);
  });

  const update = defineRoute(deps, 'secret', {
    method: 'put',
    path: '/themes',
    tags: ['Themes'],
    operationId: 'replaceTheme',
    description:
      "Secret Key. Replaces every member of the account's theme; 404 when it has none yet.",
    summary: "Replace the account's theme (all members required)",
    request: { body: jsonBody(ThemeInput) },
    responses: { 200: { ...jsonResponse(Theme, 'The theme'), headers: etagHeader }, ...errorResponses(400, 404, 413, 415) },
  });
  router.openapi(update, async (c) => {
    const theme = await updateTheme(ctx, c.var.caller.principal.accountId, c.req.valid('json'));
    setHeader(c, 'ETag', etagOf(theme));
    return respondJson(c, theme, 200);
  });

  const get = defineRoute(deps, 'secret-or-public', {
    method: 'get',
    path: '/themes',
    tags: ['Themes'],
    operationId: 'getTheme',
    description:
      "Secret Key, or Public Key from an allowed Origin. The account's theme with a strong ETag; `If-None-Match` with it answers 304 without a body.",
    summary: "The account's theme, with an ETag (If-None-Match answers 304)",
    responses: {
      200: { ...jsonResponse(Theme, 'The theme'), headers: etagHeader },
      304: { description: 'Not modified: the If-None-Match tag is current', headers: etagHeader },
      ...errorResponses(404),
    },
  });
  router.openapi(get, async (c) => {
    const theme = await getTheme(ctx, c.var.caller.principal.accountId);
    // Browsers may keep it but must revalidate, so a changed theme takes effect on the next load.
    setHeader(c, 'Cache-Control', 'private, no-cache');
    const etag = etagOf(theme);
    setHeader(c, 'ETag', etag);
    if (noneMatchHits(c.req.header('If-None-Match'), etag)) return respond(c, null, 304);
    return respondJson(c, theme, 200);
  });

  const events = defineRoute(deps, 'secret-or-public', {
    method: 'get',
    path: '/themes/events',
    tags: ['Themes'],
    operationId: 'streamThemeEvents',
    summary: "Server-Sent Events: the account's theme now and whenever it changes",
    description:
      'An `event: theme` message whose data is the Theme JSON, first with the current theme (when the account has one), ' +
      `then after every change (made by this node at once, by another node within ${THEME_POLL_SECONDS} s). A comment line is sent ` +
      `every ${HEARTBEAT_MS / 1000} s so proxies keep the stream open. At most ${MAX_STREAMS_PER_KEY} streams per key, ${MAX_STREAMS_PER_ACCOUNT} per account (all its keys together) and ${MAX_STREAMS_PER_CLIENT} per Public Key and client address (429 beyond). ` +
      'The stream ends when the server shuts down (clients reconnect), and within the heartbeat once its key is rolled past its grace period or ' +
      'deactivated, its origin removed or its environment deleted (a reconnection is then refused).',
    responses: {
      200: { description: 'The event stream', content: { 'text/event-stream': { schema: z.string() } } },
      ...errorResponses(429),
    },
  });
  router.openapi(events, async (c) => {
    const presented = presentedKey(c.req.header('Authorization'), c.req.header(PUBLIC_KEY_HEADER))!;
    const subscription = await openThemeStream(ctx, c.var.caller, presented.value, clientAddress(c, ctx.config.trustedProxies));
    return streamSSE(c, async (stream) => {
      stream.onAbort(() => subscription.close());
      try {
        // Tells EventSource clients how long to wait before reconnecting after the server ends the stream.
        await stream.writeSSE({ event: 'ready', data: '{}', retry: 3_000 });
        for (;;) {
          const theme = subscription.take();
          if (theme) await stream.writeSSE({ event: 'theme', data: JSON.stringify(theme) });
          const woke = await subscription.wait(HEARTBEAT_MS);
          if (woke === 'closed' || stream.aborted) break;
          if (woke === 'timeout') await stream.write(': heartbeat\n\n');
        }
      } finally {
        subscription.close();
      }
    }) as never;
  });

  return router;
}

/** A comment line this often keeps idle proxies and load balancers from cutting the stream. */
const HEARTBEAT_MS = 15_000;
const THEME_POLL_SECONDS = THEME_POLL_MS / 1000;

/** The tag of the JSON body c.json sends for this theme (the same serialisation). */
function etagOf(theme: ThemeView): string {
  return strongEtag(JSON.stringify(theme));
}
