-- An import's original schema moves to a table of its own, as on SQLite (src/db/sqlite/schema.ts says why).
CREATE TABLE "import_schemas" (
	"import_id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"original_schema" text COLLATE "C" NOT NULL
);
--> statement-breakpoint
ALTER TABLE "import_schemas" ADD CONSTRAINT "import_schemas_import_id_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
INSERT INTO "import_schemas" ("import_id", "original_schema") SELECT "id", "original_schema" FROM "imports";--> statement-breakpoint
ALTER TABLE "imports" DROP COLUMN "original_schema";