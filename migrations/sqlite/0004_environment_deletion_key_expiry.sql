DROP INDEX `environments_account_name`;--> statement-breakpoint
ALTER TABLE `environments` ADD `deleted_at` text;--> statement-breakpoint
CREATE UNIQUE INDEX `environments_account_name` ON `environments` (`account_id`,`name`) WHERE "environments"."deleted_at" is null;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `expires_at` text;