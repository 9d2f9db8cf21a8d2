export { listDeliveries, redeliverEvent } from './deliveries';
export { createWebhook, deleteWebhook, listWebhooks } from './endpoints';
export { WebhookWake } from './webhook-wake';
export { sendDueDeliveries, startWebhookSender, type SenderReport } from './sender';
export * from './schemas';
