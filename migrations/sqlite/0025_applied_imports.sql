-- An import applied to its dataset gets an integer id that its changes reference, instead of repeating the
-- import's text id (36 characters) in every change row and again in every entry of the changes' index: a
-- change row and its index entry are about half as many bytes, so an apply writes half as many pages for them.
-- Deleting an import still removes its changes (cascade through applied_imports).
CREATE TABLE `applied_imports` (
	`id` integer PRIMARY KEY,
	`import_id` text NOT NULL UNIQUE REFERENCES `imports`(`id`) ON DELETE CASCADE
);--> statement-breakpoint
INSERT INTO `applied_imports` (`import_id`) SELECT DISTINCT `import_id` FROM `import_changes` ORDER BY `import_id`;--> statement-breakpoint
CREATE TABLE `import_changes_by_id` (
	`applied_id` integer NOT NULL REFERENCES `applied_imports`(`id`) ON DELETE CASCADE,
	`key` text NOT NULL,
	`row_index` integer NOT NULL,
	`change` text NOT NULL,
	`previous` text,
	PRIMARY KEY (`applied_id`, `key`)
) WITHOUT ROWID;--> statement-breakpoint
-- In the new key's order: each page of the new table is written once.
INSERT INTO `import_changes_by_id` (`applied_id`, `key`, `row_index`, `change`, `previous`)
	SELECT a.`id`, c.`key`, c.`row_index`, c.`change`, c.`previous`
	FROM `import_changes` c JOIN `applied_imports` a ON a.`import_id` = c.`import_id`
	ORDER BY a.`id`, c.`key`;--> statement-breakpoint
DROP TABLE `import_changes`;--> statement-breakpoint
ALTER TABLE `import_changes_by_id` RENAME TO `import_changes`;--> statement-breakpoint
CREATE INDEX `import_changes_change` ON `import_changes` (`applied_id`, `change`, `row_index`);
