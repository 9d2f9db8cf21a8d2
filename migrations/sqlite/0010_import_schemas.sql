-- An import's original schema (up to 1 MiB) moves to a table of its own and its statistics to the end of its
-- row (src/db/sqlite/schema.ts says why). The statistics move as a column added last, filled, the old one dropped
-- and the new one renamed: rebuilding `imports` would drop it, which cascades to import_rows (foreign keys stay on
-- inside a migration's transaction).
CREATE TABLE `import_schemas` (
	`import_id` text PRIMARY KEY NOT NULL,
	`original_schema` text NOT NULL,
	FOREIGN KEY (`import_id`) REFERENCES `imports`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `import_schemas` (`import_id`, `original_schema`) SELECT `id`, `original_schema` FROM `imports`;
--> statement-breakpoint
ALTER TABLE `imports` DROP COLUMN `original_schema`;
--> statement-breakpoint
ALTER TABLE `imports` ADD `cell_stats_last` text DEFAULT '{}' NOT NULL;
--> statement-breakpoint
UPDATE `imports` SET `cell_stats_last` = `cell_stats`;
--> statement-breakpoint
ALTER TABLE `imports` DROP COLUMN `cell_stats`;
--> statement-breakpoint
ALTER TABLE `imports` RENAME COLUMN `cell_stats_last` TO `cell_stats`;
