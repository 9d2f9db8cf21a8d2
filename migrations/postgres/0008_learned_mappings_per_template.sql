DROP TABLE "learned_mappings";--> statement-breakpoint
CREATE TABLE "learned_mappings" (
	"account_id" text COLLATE "C" NOT NULL,
	"template_id" text COLLATE "C" NOT NULL,
	"schema_key" text COLLATE "C" NOT NULL,
	"confirmer" text COLLATE "C" NOT NULL,
	"file_label" text COLLATE "C" NOT NULL,
	"updated_at" text COLLATE "C" NOT NULL,
	CONSTRAINT "learned_mappings_account_id_template_id_schema_key_confirmer_pk" PRIMARY KEY("account_id","template_id","schema_key","confirmer")
);
--> statement-breakpoint
ALTER TABLE "learned_mappings" ADD CONSTRAINT "learned_mappings_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "learned_mappings" ADD CONSTRAINT "learned_mappings_template_id_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "learned_mappings_confirmer_recent" ON "learned_mappings" USING btree ("account_id","confirmer","template_id","updated_at","schema_key");
