CREATE TABLE "locks" (
	"name" text COLLATE "C" PRIMARY KEY NOT NULL,
	"owner" text COLLATE "C" NOT NULL,
	"expires_at" text COLLATE "C" NOT NULL
);
--> statement-breakpoint
-- Unlogged: counters of the current window are worth no WAL write, and a crash only resets them.
CREATE UNLOGGED TABLE "rate_limits" (
	"key_id" text COLLATE "C" NOT NULL,
	"window_start" bigint NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "rate_limits_key_id_window_start_pk" PRIMARY KEY("key_id","window_start")
);
--> statement-breakpoint
ALTER TABLE "imports" ADD COLUMN "writer_node" text COLLATE "C";--> statement-breakpoint
ALTER TABLE "imports" ADD COLUMN "lease_until" text COLLATE "C";--> statement-breakpoint
CREATE INDEX "rate_limits_window" ON "rate_limits" USING btree ("window_start");--> statement-breakpoint
ALTER TABLE "imports" DROP COLUMN "writer_pid";