DROP TABLE `learned_mappings`;--> statement-breakpoint
CREATE TABLE `learned_mappings` (
	`account_id` text NOT NULL,
	`template_id` text NOT NULL,
	`schema_key` text NOT NULL,
	`confirmer` text NOT NULL,
	`file_label` text NOT NULL,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`account_id`, `template_id`, `schema_key`, `confirmer`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`template_id`) REFERENCES `templates`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `learned_mappings_confirmer_recent` ON `learned_mappings` (`account_id`,`confirmer`,`template_id`,`updated_at`,`schema_key`);
