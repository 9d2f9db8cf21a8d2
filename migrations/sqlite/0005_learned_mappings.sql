CREATE TABLE `learned_mappings` (
	`account_id` text NOT NULL,
	`schema_key` text NOT NULL,
	`file_label` text NOT NULL,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`account_id`, `schema_key`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `learned_mappings_account_updated` ON `learned_mappings` (`account_id`,`updated_at`);