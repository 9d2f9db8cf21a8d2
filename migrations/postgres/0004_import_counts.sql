CREATE TABLE "import_counts" (
	"account_id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"complete" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "import_counts" ADD CONSTRAINT "import_counts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- The counter moves with every row entering or leaving status 'complete', whatever the statement (completion,
-- deletion, hiding by retention or erasure, an account's cascade), in that statement's transaction; its row
-- stays locked until that transaction ends. Once per statement, after all of its rows are locked, counters
-- taken in account order: a statement hiding the imports of several accounts (retention) and one waiting for
-- one of its rows (an erasure) never wait on each other in a cycle, as per-row updates could.
-- An account's cascade may have removed its counter first: then there is nothing left to lower.
CREATE FUNCTION "import_counts_add"("account" text, "n" bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	IF "n" > 0 THEN
		INSERT INTO "import_counts" ("account_id", "complete") VALUES ("account", "n")
			ON CONFLICT ("account_id") DO UPDATE SET "complete" = "import_counts"."complete" + excluded."complete";
	ELSE
		UPDATE "import_counts" SET "complete" = "complete" + "n" WHERE "account_id" = "account";
	END IF;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "import_counts_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	moved record;
BEGIN
	FOR moved IN SELECT "account_id", sum("d") AS "n" FROM (SELECT "account_id", 1 AS "d" FROM "new_rows" WHERE "status" = 'complete') m
		GROUP BY "account_id" HAVING sum("d") <> 0 ORDER BY "account_id"
	LOOP
		PERFORM "import_counts_add"(moved."account_id", moved."n");
	END LOOP;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "import_counts_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	moved record;
BEGIN
	FOR moved IN SELECT "account_id", sum("d") AS "n" FROM (SELECT "account_id", -1 AS "d" FROM "old_rows" WHERE "status" = 'complete') m
		GROUP BY "account_id" HAVING sum("d") <> 0 ORDER BY "account_id"
	LOOP
		PERFORM "import_counts_add"(moved."account_id", moved."n");
	END LOOP;
	RETURN NULL;
END
$$;
--> statement-breakpoint
-- A statement that leaves rows complete (or not) moves nothing: their -1 and +1 cancel out.
CREATE FUNCTION "import_counts_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	moved record;
BEGIN
	FOR moved IN SELECT "account_id", sum("d") AS "n" FROM (SELECT "account_id", -1 AS "d" FROM "old_rows" WHERE "status" = 'complete' UNION ALL SELECT "account_id", 1 AS "d" FROM "new_rows" WHERE "status" = 'complete') m
		GROUP BY "account_id" HAVING sum("d") <> 0 ORDER BY "account_id"
	LOOP
		PERFORM "import_counts_add"(moved."account_id", moved."n");
	END LOOP;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "imports_count_insert" AFTER INSERT ON "imports" REFERENCING NEW TABLE AS "new_rows"
	FOR EACH STATEMENT EXECUTE FUNCTION "import_counts_inserted"();
--> statement-breakpoint
CREATE TRIGGER "imports_count_update" AFTER UPDATE ON "imports" REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows"
	FOR EACH STATEMENT EXECUTE FUNCTION "import_counts_updated"();
--> statement-breakpoint
CREATE TRIGGER "imports_count_delete" AFTER DELETE ON "imports" REFERENCING OLD TABLE AS "old_rows"
	FOR EACH STATEMENT EXECUTE FUNCTION "import_counts_deleted"();
--> statement-breakpoint
INSERT INTO "import_counts" ("account_id", "complete") SELECT "account_id", count(*) FROM "imports" WHERE "status" = 'complete' GROUP BY "account_id";
