ALTER TABLE "import_rows" ADD COLUMN "errors" text;--> statement-breakpoint
ALTER TABLE "imports" ADD COLUMN "error_summary" text;--> statement-breakpoint
CREATE INDEX "import_rows_invalid" ON "import_rows" USING btree ("import_id","row_index") WHERE "import_rows"."errors" IS NOT NULL;
