CREATE TABLE "accounts" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"name" text COLLATE "C" NOT NULL,
	"created_at" text COLLATE "C" NOT NULL,
	CONSTRAINT "accounts_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"account_id" text COLLATE "C" NOT NULL,
	"environment_id" text COLLATE "C" NOT NULL,
	"kind" text COLLATE "C" NOT NULL,
	"hash" text COLLATE "C" NOT NULL,
	"prefix" text COLLATE "C" NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"allowed_origins" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" text COLLATE "C" NOT NULL,
	"last_used_at" text COLLATE "C",
	"deactivated_at" text COLLATE "C",
	"expires_at" text COLLATE "C",
	CONSTRAINT "api_keys_hash_unique" UNIQUE("hash")
);
--> statement-breakpoint
CREATE TABLE "environments" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"account_id" text COLLATE "C" NOT NULL,
	"name" text COLLATE "C" NOT NULL,
	"created_at" text COLLATE "C" NOT NULL,
	"last_used_at" text COLLATE "C",
	"deleted_at" text COLLATE "C"
);
--> statement-breakpoint
CREATE TABLE "import_rows" (
	"import_id" text COLLATE "C" NOT NULL,
	"row_index" integer NOT NULL,
	"data" text COLLATE "C" NOT NULL,
	CONSTRAINT "import_rows_import_id_row_index_pk" PRIMARY KEY("import_id","row_index")
);
--> statement-breakpoint
CREATE TABLE "imports" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"account_id" text COLLATE "C" NOT NULL,
	"environment_id" text COLLATE "C",
	"template_id" text COLLATE "C" NOT NULL,
	"status" text COLLATE "C" NOT NULL,
	"writer_pid" integer,
	"meta" text COLLATE "C" NOT NULL,
	"original_schema" text COLLATE "C" NOT NULL,
	"file" text COLLATE "C",
	"file_id" text COLLATE "C",
	"end_user_id" text COLLATE "C",
	"end_user_email" text COLLATE "C",
	"end_user_ip" text COLLATE "C",
	"imported_from" text COLLATE "C",
	"session_jti" text COLLATE "C",
	"row_count" integer DEFAULT 0 NOT NULL,
	"cell_stats" text COLLATE "C" DEFAULT '{}' NOT NULL,
	"created_at" text COLLATE "C" NOT NULL,
	"updated_at" text COLLATE "C" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "learned_mappings" (
	"account_id" text COLLATE "C" NOT NULL,
	"schema_key" text COLLATE "C" NOT NULL,
	"file_label" text COLLATE "C" NOT NULL,
	"updated_at" text COLLATE "C" NOT NULL,
	CONSTRAINT "learned_mappings_account_id_schema_key_pk" PRIMARY KEY("account_id","schema_key")
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"jti" text COLLATE "C" PRIMARY KEY NOT NULL,
	"account_id" text COLLATE "C" NOT NULL,
	"environment_id" text COLLATE "C" NOT NULL,
	"template_id" text COLLATE "C",
	"end_user_id" text COLLATE "C" NOT NULL,
	"end_user_email" text COLLATE "C",
	"end_user_ip" text COLLATE "C",
	"metadata" text COLLATE "C" DEFAULT '{}' NOT NULL,
	"created_at" text COLLATE "C" NOT NULL,
	"expires_at" text COLLATE "C" NOT NULL,
	"revoked_at" text COLLATE "C"
);
--> statement-breakpoint
CREATE TABLE "settings" (
	"key" text COLLATE "C" PRIMARY KEY NOT NULL,
	"value" text COLLATE "C" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "templates" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"account_id" text COLLATE "C" NOT NULL,
	"key" text COLLATE "C" NOT NULL,
	"schema" text COLLATE "C" NOT NULL,
	"source" text COLLATE "C" NOT NULL,
	"metadata" text COLLATE "C" DEFAULT '{}' NOT NULL,
	"created_at" text COLLATE "C" NOT NULL,
	"updated_at" text COLLATE "C" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "themes" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"account_id" text COLLATE "C" NOT NULL,
	"name" text COLLATE "C" NOT NULL,
	"description" text COLLATE "C" NOT NULL,
	"light_colors" text COLLATE "C" NOT NULL,
	"dark_colors" text COLLATE "C" NOT NULL,
	"radius" text COLLATE "C" NOT NULL,
	"sizes" text COLLATE "C" NOT NULL,
	"effects" text COLLATE "C" NOT NULL,
	"created_at" text COLLATE "C" NOT NULL,
	"updated_at" text COLLATE "C" NOT NULL,
	CONSTRAINT "themes_account_id_unique" UNIQUE("account_id")
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "environments" ADD CONSTRAINT "environments_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_rows" ADD CONSTRAINT "import_rows_import_id_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "imports" ADD CONSTRAINT "imports_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "imports" ADD CONSTRAINT "imports_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "imports" ADD CONSTRAINT "imports_template_id_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."templates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "learned_mappings" ADD CONSTRAINT "learned_mappings_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "themes" ADD CONSTRAINT "themes_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_keys_environment" ON "api_keys" USING btree ("environment_id","kind");--> statement-breakpoint
CREATE UNIQUE INDEX "environments_account_name" ON "environments" USING btree ("account_id","name") WHERE "environments"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "imports_account_created" ON "imports" USING btree ("account_id","created_at","id");--> statement-breakpoint
CREATE INDEX "imports_account_updated" ON "imports" USING btree ("account_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "imports_account_template_created" ON "imports" USING btree ("account_id","template_id","created_at","id");--> statement-breakpoint
CREATE INDEX "imports_account_template_updated" ON "imports" USING btree ("account_id","template_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "imports_account_end_user" ON "imports" USING btree ("account_id","end_user_id");--> statement-breakpoint
CREATE INDEX "imports_account_status" ON "imports" USING btree ("account_id","status");--> statement-breakpoint
CREATE INDEX "imports_writing" ON "imports" USING btree ("status") WHERE "imports"."status" = 'writing';--> statement-breakpoint
CREATE INDEX "imports_account_environment_created" ON "imports" USING btree ("account_id","environment_id","created_at","id");--> statement-breakpoint
CREATE INDEX "imports_account_environment_updated" ON "imports" USING btree ("account_id","environment_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "learned_mappings_account_updated" ON "learned_mappings" USING btree ("account_id","updated_at");--> statement-breakpoint
CREATE INDEX "sessions_account_end_user" ON "sessions" USING btree ("account_id","end_user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "templates_account_key" ON "templates" USING btree ("account_id","key");--> statement-breakpoint
CREATE INDEX "templates_account_created" ON "templates" USING btree ("account_id","created_at","id");--> statement-breakpoint
CREATE INDEX "templates_account_updated" ON "templates" USING btree ("account_id","updated_at","id");