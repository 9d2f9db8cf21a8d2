-- The bytes each import's body had (IMPORTD_ACCOUNT_QUOTA_BYTES counts them); imports stored before this
-- migration count 0, their size was never recorded.
ALTER TABLE "imports" ADD COLUMN "bytes" bigint DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "import_counts" ADD COLUMN "bytes" bigint DEFAULT 0 NOT NULL;
--> statement-breakpoint
-- As the import_counts migration, with the bytes of the rows entering or leaving status 'complete' beside
-- their number (set by the completion itself, in the same UPDATE as the status).
DROP TRIGGER "imports_count_insert" ON "imports";
--> statement-breakpoint
DROP TRIGGER "imports_count_update" ON "imports";
--> statement-breakpoint
DROP TRIGGER "imports_count_delete" ON "imports";
--> statement-breakpoint
DROP FUNCTION "import_counts_inserted"();
--> statement-breakpoint
DROP FUNCTION "import_counts_updated"();
--> statement-breakpoint
DROP FUNCTION "import_counts_deleted"();
--> statement-breakpoint
DROP FUNCTION "import_counts_add"(text, bigint);
--> statement-breakpoint
CREATE FUNCTION "import_counts_add"("account" text, "n" bigint, "b" bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	IF "n" > 0 THEN
		INSERT INTO "import_counts" ("account_id", "complete", "bytes") VALUES ("account", "n", "b")
			ON CONFLICT ("account_id") DO UPDATE SET "complete" = "import_counts"."complete" + excluded."complete", "bytes" = "import_counts"."bytes" + excluded."bytes";
	ELSE
		UPDATE "import_counts" SET "complete" = "complete" + "n", "bytes" = "bytes" + "b" WHERE "account_id" = "account";
	END IF;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "import_counts_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	moved record;
BEGIN
	FOR moved IN SELECT "account_id", sum("d") AS "n", sum("b")::bigint AS "b" FROM (SELECT "account_id", 1 AS "d", "bytes" AS "b" FROM "new_rows" WHERE "status" = 'complete') m
		GROUP BY "account_id" HAVING sum("d") <> 0 OR sum("b") <> 0 ORDER BY "account_id"
	LOOP
		PERFORM "import_counts_add"(moved."account_id", moved."n", moved."b");
	END LOOP;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "import_counts_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	moved record;
BEGIN
	FOR moved IN SELECT "account_id", sum("d") AS "n", sum("b")::bigint AS "b" FROM (SELECT "account_id", -1 AS "d", -"bytes" AS "b" FROM "old_rows" WHERE "status" = 'complete') m
		GROUP BY "account_id" HAVING sum("d") <> 0 OR sum("b") <> 0 ORDER BY "account_id"
	LOOP
		PERFORM "import_counts_add"(moved."account_id", moved."n", moved."b");
	END LOOP;
	RETURN NULL;
END
$$;
--> statement-breakpoint
-- A statement that leaves rows complete (or not) with their bytes moves nothing: their -1 and +1 cancel out.
CREATE FUNCTION "import_counts_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	moved record;
BEGIN
	FOR moved IN SELECT "account_id", sum("d") AS "n", sum("b")::bigint AS "b" FROM (SELECT "account_id", -1 AS "d", -"bytes" AS "b" FROM "old_rows" WHERE "status" = 'complete' UNION ALL SELECT "account_id", 1 AS "d", "bytes" AS "b" FROM "new_rows" WHERE "status" = 'complete') m
		GROUP BY "account_id" HAVING sum("d") <> 0 OR sum("b") <> 0 ORDER BY "account_id"
	LOOP
		PERFORM "import_counts_add"(moved."account_id", moved."n", moved."b");
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
