CREATE TABLE `accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `accounts_name_unique` ON `accounts` (`name`);--> statement-breakpoint
CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`environment_id` text NOT NULL,
	`kind` text NOT NULL,
	`hash` text NOT NULL,
	`prefix` text NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`allowed_origins` text DEFAULT '[]' NOT NULL,
	`created_at` text NOT NULL,
	`last_used_at` text,
	`deactivated_at` text,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`environment_id`) REFERENCES `environments`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_hash_unique` ON `api_keys` (`hash`);--> statement-breakpoint
CREATE INDEX `api_keys_environment` ON `api_keys` (`environment_id`,`kind`);--> statement-breakpoint
CREATE TABLE `environments` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`name` text NOT NULL,
	`created_at` text NOT NULL,
	`last_used_at` text,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `environments_account_name` ON `environments` (`account_id`,`name`);--> statement-breakpoint
CREATE TABLE `import_rows` (
	`import_id` text NOT NULL,
	`row_index` integer NOT NULL,
	`data` text NOT NULL,
	PRIMARY KEY(`import_id`, `row_index`),
	FOREIGN KEY (`import_id`) REFERENCES `imports`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `imports` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`environment_id` text,
	`template_id` text NOT NULL,
	`status` text NOT NULL,
	`writer_pid` integer,
	`meta` text NOT NULL,
	`original_schema` text NOT NULL,
	`file` text,
	`file_id` text,
	`end_user_id` text,
	`end_user_email` text,
	`end_user_ip` text,
	`imported_from` text,
	`session_jti` text,
	`row_count` integer DEFAULT 0 NOT NULL,
	`cell_stats` text DEFAULT '{}' NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`environment_id`) REFERENCES `environments`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`template_id`) REFERENCES `templates`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `imports_account_created` ON `imports` (`account_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `imports_account_updated` ON `imports` (`account_id`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `imports_account_template_created` ON `imports` (`account_id`,`template_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `imports_account_template_updated` ON `imports` (`account_id`,`template_id`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `imports_account_end_user` ON `imports` (`account_id`,`end_user_id`);--> statement-breakpoint
CREATE INDEX `imports_status` ON `imports` (`status`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`jti` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`environment_id` text NOT NULL,
	`template_id` text,
	`end_user_id` text NOT NULL,
	`end_user_email` text,
	`end_user_ip` text,
	`metadata` text DEFAULT '{}' NOT NULL,
	`created_at` text NOT NULL,
	`expires_at` text NOT NULL,
	`revoked_at` text,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`environment_id`) REFERENCES `environments`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_account_end_user` ON `sessions` (`account_id`,`end_user_id`);--> statement-breakpoint
CREATE TABLE `settings` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `templates` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`key` text NOT NULL,
	`schema` text NOT NULL,
	`source` text NOT NULL,
	`metadata` text DEFAULT '{}' NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `templates_account_key` ON `templates` (`account_id`,`key`);--> statement-breakpoint
CREATE INDEX `templates_account_created` ON `templates` (`account_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `themes` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text NOT NULL,
	`light_colors` text NOT NULL,
	`dark_colors` text NOT NULL,
	`radius` text NOT NULL,
	`sizes` text NOT NULL,
	`effects` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `themes_account_id_unique` ON `themes` (`account_id`);