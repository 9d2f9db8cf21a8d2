import type Database from 'better-sqlite3';
import type { EndpointCaps, WebhookStore } from '../store/store';
import * as q from './queries/webhooks';

/** The repository of webhook endpoints and deliveries; events are written by the store methods of the changes they report. */
export function createWebhookStore(sqlite: Database.Database): WebhookStore {
  const write = <A extends unknown[], T>(work: (...args: A) => T) => sqlite.transaction(work).immediate;
  const insertEndpoint = write((row: Parameters<WebhookStore['insertEndpoint']>[0], caps: EndpointCaps) => q.insertEndpointBelow(sqlite, row, caps));
  const fanOut = write((afterAccount: string | null, accounts: number, batch: number) => q.fanOut(sqlite, afterAccount, accounts, batch));
  const claimDue = write((claim: Parameters<WebhookStore['claimDue']>[0]) => q.claimDue(sqlite, claim));
  const recordAttempt = write((attempt: Parameters<WebhookStore['recordAttempt']>[0]) => q.recordAttempt(sqlite, attempt));
  return {
    insertEndpoint: async (row, caps) => insertEndpoint(row, caps),
    findEndpoint: async (scope, id) => q.findEndpoint(sqlite, scope, id),
    pageEndpoints: async (scope, after, limit) => q.pageEndpoints(sqlite, scope, after, limit),
    countEndpoints: async (scope) => q.countEndpoints(sqlite, scope),
    deleteEndpoint: async (scope, id) => q.deleteEndpoint(sqlite, scope, id),
    pageDeliveries: async (endpointId, after, limit) => q.pageDeliveries(sqlite, endpointId, after, limit),
    countDeliveries: async (endpointId) => q.countDeliveries(sqlite, endpointId),
    redeliver: async (scope, eventId, endpointId, at) => q.redeliver(sqlite, scope, eventId, endpointId, at),
    claimDue: async (claim) => claimDue(claim),
    pendingEndpoints: async (after, limit) => q.pendingEndpoints(sqlite, after, limit),
    recordAttempt: async (attempt) => recordAttempt(attempt),
    pruneEvents: async (cutoff, limit) => q.pruneEvents(sqlite, cutoff, limit),
    fanOut: async (afterAccount, accounts, batch) => fanOut(afterAccount, accounts, batch),
  };
}
