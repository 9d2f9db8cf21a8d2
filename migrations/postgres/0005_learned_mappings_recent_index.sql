DROP INDEX "learned_mappings_account_updated";--> statement-breakpoint
CREATE INDEX "learned_mappings_account_recent" ON "learned_mappings" USING btree ("account_id","updated_at","schema_key");