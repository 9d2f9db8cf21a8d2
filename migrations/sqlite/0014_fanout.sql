ALTER TABLE `environments` ADD `auto_create_templates` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `webhook_events` ADD `environment_id` text;--> statement-breakpoint
ALTER TABLE `webhook_events` ADD `fanout_pending` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `webhook_events` ADD `fanout_after` text;--> statement-breakpoint
CREATE INDEX `webhook_events_fanout` ON `webhook_events` (`account_id`,`id`) WHERE "webhook_events"."fanout_pending" = 1;