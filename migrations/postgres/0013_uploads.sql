-- Resumable uploads (tus): as the SQLite migration 0020_uploads.
CREATE TABLE "uploads" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"account_id" text COLLATE "C" NOT NULL REFERENCES "accounts"("id") ON DELETE cascade,
	"environment_id" text COLLATE "C",
	"end_user_id" text COLLATE "C",
	"owner" text COLLATE "C" NOT NULL,
	"metadata" text COLLATE "C" NOT NULL,
	"size_bytes" bigint NOT NULL,
	"status" text COLLATE "C" NOT NULL,
	"rows_processed" bigint DEFAULT 0 NOT NULL,
	"import_id" text COLLATE "C",
	"error" text COLLATE "C",
	"lease_node" text COLLATE "C",
	"lease_until" text COLLATE "C",
	"created_at" text COLLATE "C" NOT NULL,
	"expires_at" text COLLATE "C" NOT NULL,
	"updated_at" text COLLATE "C" NOT NULL
);
--> statement-breakpoint
CREATE INDEX "uploads_account_status" ON "uploads" ("account_id","status");
--> statement-breakpoint
CREATE INDEX "uploads_status_expires" ON "uploads" ("status","expires_at");
--> statement-breakpoint
CREATE INDEX "uploads_import" ON "uploads" ("import_id");
--> statement-breakpoint
CREATE INDEX "imports_account_file" ON "imports" ("account_id","file_id") WHERE "imports"."file_id" IS NOT NULL;
