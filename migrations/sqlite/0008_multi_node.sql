CREATE TABLE `locks` (
	`name` text PRIMARY KEY NOT NULL,
	`owner` text NOT NULL,
	`expires_at` text NOT NULL
);
--> statement-breakpoint
ALTER TABLE `imports` ADD `writer_node` text;--> statement-breakpoint
ALTER TABLE `imports` ADD `lease_until` text;--> statement-breakpoint
ALTER TABLE `imports` DROP COLUMN `writer_pid`;