-- Review before an import counts (docs/templates.md "Review"): every import stored before reads as completed.
ALTER TABLE "imports" ADD COLUMN "review_status" text DEFAULT 'completed' NOT NULL;
--> statement-breakpoint
ALTER TABLE "imports" ADD COLUMN "reviewed_at" text;
--> statement-breakpoint
ALTER TABLE "imports" ADD COLUMN "review_reason" text;
--> statement-breakpoint
CREATE INDEX "imports_account_review_created" ON "imports" USING btree ("account_id","review_status","created_at","id") WHERE "imports"."review_status" <> 'completed';
--> statement-breakpoint
CREATE INDEX "imports_account_review_updated" ON "imports" USING btree ("account_id","review_status","updated_at","id") WHERE "imports"."review_status" <> 'completed';
