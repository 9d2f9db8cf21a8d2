import type { DeliveryAttempt } from './store';

/** The last error of the pending deliveries failed when their endpoint is disabled (unless they have one). */
export const DISABLED = 'the endpoint was disabled';

/**
 * A delivery's status after an attempt: delivered on a 2xx, else pending while the schedule lasts and the
 * endpoint is active. An endpoint disabled meanwhile (by another attempt) is never claimed again, so its
 * delivery would otherwise stay pending for good.
 */
export function attemptStatus(attempt: Pick<DeliveryAttempt, 'ok' | 'nextAttemptAt'>, endpointActive: boolean): 'delivered' | 'failed' | 'pending' {
  if (attempt.ok) return 'delivered';
  return attempt.nextAttemptAt === null || !endpointActive ? 'failed' : 'pending';
}
