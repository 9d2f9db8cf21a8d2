CREATE TABLE "import_counts" (
	"account_id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"complete" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "import_counts" ADD CONSTRAINT "import_counts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- The counter moves with every row entering or leaving status 'complete', whatever the statement (completion,
-- deletion, hiding by retention or erasure, an account's cascade), in that statement's transaction: its row
-- stays locked until that transaction ends, so concurrent writers of one account take turns on it.
CREATE FUNCTION "import_counts_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP <> 'INSERT' THEN
		IF OLD.status = 'complete' THEN
			UPDATE "import_counts" SET "complete" = "complete" - 1 WHERE "account_id" = OLD.account_id;
		END IF;
	END IF;
	IF TG_OP <> 'DELETE' THEN
		IF NEW.status = 'complete' THEN
			INSERT INTO "import_counts" ("account_id", "complete") VALUES (NEW.account_id, 1)
				ON CONFLICT ("account_id") DO UPDATE SET "complete" = "import_counts"."complete" + 1;
		END IF;
	END IF;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "imports_count_insert" AFTER INSERT ON "imports" FOR EACH ROW
	WHEN (NEW.status = 'complete') EXECUTE FUNCTION "import_counts_follow"();
--> statement-breakpoint
CREATE TRIGGER "imports_count_update" AFTER UPDATE OF "status", "account_id" ON "imports" FOR EACH ROW
	WHEN ((OLD.status = 'complete' OR NEW.status = 'complete') AND (OLD.status IS DISTINCT FROM NEW.status OR OLD.account_id IS DISTINCT FROM NEW.account_id))
	EXECUTE FUNCTION "import_counts_follow"();
--> statement-breakpoint
CREATE TRIGGER "imports_count_delete" AFTER DELETE ON "imports" FOR EACH ROW
	WHEN (OLD.status = 'complete') EXECUTE FUNCTION "import_counts_follow"();
--> statement-breakpoint
INSERT INTO "import_counts" ("account_id", "complete") SELECT "account_id", count(*) FROM "imports" WHERE "status" = 'complete' GROUP BY "account_id";
