ALTER TABLE "environments" ADD COLUMN "auto_create_templates" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "environment_id" text COLLATE "C";--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "fanout_pending" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "fanout_after" text COLLATE "C";--> statement-breakpoint
CREATE INDEX "webhook_events_fanout" ON "webhook_events" USING btree ("account_id","id") WHERE "webhook_events"."fanout_pending";