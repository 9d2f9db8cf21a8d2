-- Keyed templates (docs/templates.md): the current record per key of each (template, environment), and what
-- applying each import to it changed. An import's `mode` and `changes` are null for an unkeyed template.
ALTER TABLE `imports` ADD `mode` text;--> statement-breakpoint
ALTER TABLE `imports` ADD `changes` text;--> statement-breakpoint
-- `environment_id` '' for imports of no environment; `import_id` has no foreign key: deleting an import does
-- not rewrite the dataset. `end_user_id` is the last writer's, for erasure.
CREATE TABLE `dataset_records` (
	`template_id` text NOT NULL REFERENCES `templates`(`id`) ON DELETE CASCADE,
	`environment_id` text NOT NULL,
	`key` text NOT NULL,
	`record` text NOT NULL,
	`account_id` text NOT NULL,
	`import_id` text NOT NULL,
	`end_user_id` text,
	`updated_at` text NOT NULL,
	PRIMARY KEY (`template_id`, `environment_id`, `key`)
) WITHOUT ROWID;--> statement-breakpoint
CREATE INDEX `dataset_records_end_user` ON `dataset_records` (`account_id`, `end_user_id`) WHERE `end_user_id` IS NOT NULL;--> statement-breakpoint
-- One row per applied row of an import, by its key (the dataset's keys an import did not carry are found by
-- it): `previous` is the record its key held before (updated rows only).
CREATE TABLE `import_changes` (
	`import_id` text NOT NULL REFERENCES `imports`(`id`) ON DELETE CASCADE,
	`key` text NOT NULL,
	`row_index` integer NOT NULL,
	`change` text NOT NULL,
	`previous` text,
	PRIMARY KEY (`import_id`, `key`)
) WITHOUT ROWID;--> statement-breakpoint
CREATE INDEX `import_changes_change` ON `import_changes` (`import_id`, `change`, `row_index`);--> statement-breakpoint
-- The keys a `replace` import removed from its dataset.
CREATE TABLE `import_missing` (
	`import_id` text NOT NULL REFERENCES `imports`(`id`) ON DELETE CASCADE,
	`key` text NOT NULL,
	PRIMARY KEY (`import_id`, `key`)
) WITHOUT ROWID;
