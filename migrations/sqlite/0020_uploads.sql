-- Resumable uploads (tus): who owns each, what it should become, and where its processing stands, so that any
-- node sharing the database (and the files folder) can serve and finish it. A completed upload stays as the
-- record of its import's original file (imports.file_id) until that import goes.
CREATE TABLE `uploads` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL REFERENCES `accounts`(`id`) ON DELETE cascade,
	`environment_id` text,
	`end_user_id` text,
	`owner` text NOT NULL,
	`metadata` text NOT NULL,
	`size_bytes` integer NOT NULL,
	`status` text NOT NULL,
	`rows_processed` integer DEFAULT 0 NOT NULL,
	`import_id` text,
	`error` text,
	`lease_node` text,
	`lease_until` text,
	`created_at` text NOT NULL,
	`expires_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `uploads_account_status` ON `uploads` (`account_id`,`status`);--> statement-breakpoint
CREATE INDEX `uploads_status_expires` ON `uploads` (`status`,`expires_at`);--> statement-breakpoint
CREATE INDEX `uploads_import` ON `uploads` (`import_id`);
--> statement-breakpoint
CREATE INDEX `imports_account_file` ON `imports` (`account_id`,`file_id`) WHERE "imports"."file_id" IS NOT NULL;
