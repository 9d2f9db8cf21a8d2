import type { WebhookStore } from '../store/store';
import type { PgDb } from './open-database';
import * as q from './queries/webhooks';

/** The repository of webhook endpoints and deliveries; events are written by the store methods of the changes they report. */
export function createWebhookStore(db: PgDb): WebhookStore {
  return {
    insertEndpoint: (row, caps) => db.transaction((tx) => q.insertEndpointBelow(tx, row, caps)),
    findEndpoint: (scope, id) => q.findEndpoint(db, scope, id),
    pageEndpoints: (scope, after, limit) => q.pageEndpoints(db, scope, after, limit),
    countEndpoints: (scope) => q.countEndpoints(db, scope),
    deleteEndpoint: (scope, id) => q.deleteEndpoint(db, scope, id),
    pageDeliveries: (endpointId, after, limit) => q.pageDeliveries(db, endpointId, after, limit),
    countDeliveries: (endpointId) => q.countDeliveries(db, endpointId),
    redeliver: (scope, eventId, endpointId, at) => q.redeliver(db, scope, eventId, endpointId, at),
    claimDue: (claim) => q.claimDue(db, claim),
    pendingEndpoints: (after, limit) => q.pendingEndpoints(db, after, limit),
    recordAttempt: (attempt) => db.transaction((tx) => q.recordAttempt(tx, attempt)),
    pruneEvents: (cutoff, limit) => q.pruneEvents(db, cutoff, limit),
    fanOut: (afterAccount, accounts, batch) => db.transaction((tx) => q.fanOut(tx, afterAccount, accounts, batch)),
  };
}
