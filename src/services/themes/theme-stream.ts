import { callerStillAccepted, publicKeyClient, type Caller } from '../auth';
import type { ServiceContext } from '../context';
import type { ThemeSubscription } from './theme-events';

/** Tells every node's open streams of the account that its theme changed (called by the verbs that write it). */
export async function themeChanged(ctx: ServiceContext, accountId: string): Promise<void> {
  await ctx.store.notices.publish('theme', accountId);
}

/**
 * Opens a theme stream for an authenticated caller (GET /v1/themes/events): its account's theme now, then
 * each change. The caller is checked again (`presented`: the key it authenticated with) at every wake, a
 * change or a `wait` running out, so the stream ends ('closed') once its key is rolled past its grace period
 * or deactivated, its origin removed or its environment deleted; streams of one key and origin woken together
 * share one check (a theme change costs one per key of the account, not one per stream). Throws rate_limited
 * when the key, a Public Key's client (`clientAddress`, as the rate limit counts it), the account or the process
 * has too many streams open.
 */
export async function openThemeStream(ctx: ServiceContext, caller: Caller, presented: string, clientAddress: string | undefined): Promise<ThemeSubscription> {
  const { principal } = caller;
  const client = publicKeyClient(principal, () => clientAddress);
  const subscription = await ctx.themeEvents.subscribe(principal.accountId, principal.keyId, client);
  return {
    ...subscription,
    wait: async (ms) => {
      const woke = await subscription.wait(ms);
      const name = `${principal.keyId}\n${caller.origin ?? ''}\n${presented}`;
      if (woke === 'closed' || (await ctx.themeEvents.checks.stillAccepted(name, () => callerStillAccepted(ctx, caller, presented)))) return woke;
      subscription.close();
      return 'closed';
    },
  };
}
