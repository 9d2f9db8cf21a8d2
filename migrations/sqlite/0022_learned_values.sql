CREATE TABLE `__new_learned_mappings` (
	`account_id` text NOT NULL,
	`template_id` text NOT NULL,
	`schema_key` text NOT NULL,
	`file_value` text DEFAULT '' NOT NULL,
	`confirmer` text NOT NULL,
	`file_label` text NOT NULL,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`account_id`, `template_id`, `schema_key`, `file_value`, `confirmer`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`template_id`) REFERENCES `templates`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_learned_mappings` (`account_id`, `template_id`, `schema_key`, `file_value`, `confirmer`, `file_label`, `updated_at`) SELECT `account_id`, `template_id`, `schema_key`, '', `confirmer`, `file_label`, `updated_at` FROM `learned_mappings`;--> statement-breakpoint
DROP TABLE `learned_mappings`;--> statement-breakpoint
ALTER TABLE `__new_learned_mappings` RENAME TO `learned_mappings`;--> statement-breakpoint
CREATE INDEX `learned_mappings_confirmer_recent` ON `learned_mappings` (`account_id`,`confirmer`,`template_id`,`updated_at`,`schema_key`,`file_value`);
