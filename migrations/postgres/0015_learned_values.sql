ALTER TABLE "learned_mappings" ADD COLUMN "file_value" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "learned_mappings" DROP CONSTRAINT "learned_mappings_account_id_template_id_schema_key_confirmer_pk";--> statement-breakpoint
ALTER TABLE "learned_mappings" ADD CONSTRAINT "learned_mappings_account_id_template_id_schema_key_file_value_confirmer_pk" PRIMARY KEY("account_id","template_id","schema_key","file_value","confirmer");--> statement-breakpoint
DROP INDEX "learned_mappings_confirmer_recent";--> statement-breakpoint
CREATE INDEX "learned_mappings_confirmer_recent" ON "learned_mappings" USING btree ("account_id","confirmer","template_id","updated_at","schema_key","file_value");
