export { listDeliveries, redeliverEvent } from './deliveries';
export { createWebhook, deleteWebhook, listWebhooks } from './endpoints';
export { WebhookWake } from './events';
export { sendDueDeliveries, startWebhookSender, type SenderReport } from './sender';
export * from './schemas';
