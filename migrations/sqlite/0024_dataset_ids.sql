-- Each dataset (a keyed template's records in one environment) gets a row of its own with an integer id that
-- its records reference, instead of repeating the template's and environment's text ids and the account's in
-- every record: smaller rows and a smaller primary key, so an apply's lookups and writes touch fewer pages.
-- The dataset's record count moves onto that row, kept by the store's writers (apply, erasure) instead of
-- triggers; deleting a template still removes its datasets and their records (cascade).
CREATE TABLE `datasets` (
	`id` integer PRIMARY KEY,
	`template_id` text NOT NULL REFERENCES `templates`(`id`) ON DELETE CASCADE,
	`environment_id` text NOT NULL,
	`account_id` text NOT NULL,
	`records` integer NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX `datasets_template_environment` ON `datasets` (`template_id`, `environment_id`);--> statement-breakpoint
CREATE INDEX `datasets_account` ON `datasets` (`account_id`);--> statement-breakpoint
INSERT INTO `datasets` (`template_id`, `environment_id`, `account_id`, `records`)
	SELECT `template_id`, `environment_id`, min(`account_id`), count(*) FROM `dataset_records` GROUP BY `template_id`, `environment_id`;--> statement-breakpoint
CREATE TABLE `dataset_records_by_id` (
	`dataset_id` integer NOT NULL REFERENCES `datasets`(`id`) ON DELETE CASCADE,
	`key` text NOT NULL,
	`record` text NOT NULL,
	`import_id` text NOT NULL,
	`end_user_id` text,
	`updated_at` text NOT NULL,
	PRIMARY KEY (`dataset_id`, `key`)
) WITHOUT ROWID;--> statement-breakpoint
-- In the new key's order: each page of the new table is written once.
INSERT INTO `dataset_records_by_id` (`dataset_id`, `key`, `record`, `import_id`, `end_user_id`, `updated_at`)
	SELECT d.`id`, r.`key`, r.`record`, r.`import_id`, r.`end_user_id`, r.`updated_at`
	FROM `dataset_records` r JOIN `datasets` d ON d.`template_id` = r.`template_id` AND d.`environment_id` = r.`environment_id`
	ORDER BY d.`id`, r.`key`;--> statement-breakpoint
DROP TABLE `dataset_records`;--> statement-breakpoint
DROP TABLE `dataset_counts`;--> statement-breakpoint
ALTER TABLE `dataset_records_by_id` RENAME TO `dataset_records`;--> statement-breakpoint
-- Erasure finds an end-user's records by it, within the account's datasets.
CREATE INDEX `dataset_records_end_user` ON `dataset_records` (`end_user_id`) WHERE `end_user_id` IS NOT NULL;
