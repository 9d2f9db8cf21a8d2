-- A template's schema (up to 1 MiB) moves to the end of its row (src/db/sqlite/schema.ts says why), as a column
-- added last, filled, the old one dropped and the new one renamed: rebuilding `templates` would drop a table that
-- imports refer to.
ALTER TABLE `templates` ADD `schema_last` text DEFAULT '{}' NOT NULL;
--> statement-breakpoint
UPDATE `templates` SET `schema_last` = `schema`;
--> statement-breakpoint
ALTER TABLE `templates` DROP COLUMN `schema`;
--> statement-breakpoint
ALTER TABLE `templates` RENAME COLUMN `schema_last` TO `schema`;
