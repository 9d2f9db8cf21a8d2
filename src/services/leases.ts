import type { ServiceContext } from './context';

/** When a lease taken or renewed now ends. */
export function leaseEnd(ctx: Pick<ServiceContext, 'clock' | 'config'>): string {
  return new Date(ctx.clock().getTime() + ctx.config.leaseSeconds * 1000).toISOString();
}

export interface LeaseKeeper {
  /** The lease was found taken by another node (or gone) at a renewal: the work it covered is no longer ours. */
  readonly lost: boolean;
  stop(): void;
}

/**
 * Renews a lease every third of IMPORTD_LEASE_SECONDS until stopped, so the holder may miss two renewals (a
 * busy database, a slow disk) before another node may take its work over. `renew` gets the new end and
 * answers false when the lease is no longer ours (then `onLost` runs); a renewal that fails is retried at the next tick. The timer
 * is unref'd: it never keeps the process alive.
 */
export function keepLease(
  ctx: Pick<ServiceContext, 'clock' | 'config'>,
  renew: (until: string) => Promise<boolean>,
  onLost: () => Promise<void> = async () => undefined,
): LeaseKeeper {
  let lost = false;
  const timer = setInterval(() => {
    renew(leaseEnd(ctx)).then(
      (held) => {
        if (!held) {
          lost = true;
          clearInterval(timer);
          onLost().catch(() => undefined);
        }
      },
      () => undefined,
    );
  }, (ctx.config.leaseSeconds * 1000) / 3);
  timer.unref();
  return {
    get lost() {
      return lost;
    },
    stop: () => clearInterval(timer),
  };
}
