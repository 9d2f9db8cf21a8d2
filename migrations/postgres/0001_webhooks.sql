CREATE TABLE "webhook_deliveries" (
	"endpoint_id" text COLLATE "C" NOT NULL,
	"event_id" text COLLATE "C" NOT NULL,
	"status" text COLLATE "C" NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" text COLLATE "C",
	"last_attempt_at" text COLLATE "C",
	"last_status_code" integer,
	"last_response" text COLLATE "C",
	"last_error" text COLLATE "C",
	"lease_owner" text COLLATE "C",
	"lease_expires_at" text COLLATE "C",
	CONSTRAINT "webhook_deliveries_endpoint_id_event_id_pk" PRIMARY KEY("endpoint_id","event_id")
);
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"account_id" text COLLATE "C" NOT NULL,
	"environment_id" text COLLATE "C" NOT NULL,
	"url" text COLLATE "C" NOT NULL,
	"description" text COLLATE "C" DEFAULT '' NOT NULL,
	"events" text COLLATE "C" NOT NULL,
	"secret" text COLLATE "C" NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"disabled_reason" text COLLATE "C",
	"failing_since" text COLLATE "C",
	"created_at" text COLLATE "C" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"account_id" text COLLATE "C" NOT NULL,
	"type" text COLLATE "C" NOT NULL,
	"import_id" text COLLATE "C",
	"end_user_id" text COLLATE "C",
	"payload" text COLLATE "C" NOT NULL,
	"created_at" text COLLATE "C" NOT NULL
);
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_id_webhook_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."webhook_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_event" ON "webhook_deliveries" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE "webhook_deliveries"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_endpoints_environment" ON "webhook_endpoints" USING btree ("environment_id","created_at","id");--> statement-breakpoint
CREATE INDEX "webhook_endpoints_account" ON "webhook_endpoints" USING btree ("account_id","created_at","id");--> statement-breakpoint
CREATE INDEX "webhook_events_import" ON "webhook_events" USING btree ("import_id");--> statement-breakpoint
CREATE INDEX "webhook_events_end_user" ON "webhook_events" USING btree ("account_id","end_user_id");--> statement-breakpoint
CREATE INDEX "webhook_events_created" ON "webhook_events" USING btree ("created_at");