ALTER TABLE `import_rows` ADD `errors` text;--> statement-breakpoint
ALTER TABLE `imports` ADD `error_summary` text;--> statement-breakpoint
CREATE INDEX `import_rows_invalid` ON `import_rows` (`import_id`,`row_index`) WHERE "import_rows"."errors" IS NOT NULL;
