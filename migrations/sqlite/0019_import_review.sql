-- Review before an import counts (docs/templates.md "Review"): every import stored before reads as completed.
ALTER TABLE `imports` ADD `review_status` text DEFAULT 'completed' NOT NULL;--> statement-breakpoint
ALTER TABLE `imports` ADD `reviewed_at` text;--> statement-breakpoint
ALTER TABLE `imports` ADD `review_reason` text;--> statement-breakpoint
-- The list reads review_status: the statistics and the error summary, which can be large, move after it (as the
-- import_schemas migration did: a column added last, filled, the old one dropped and the new one renamed).
ALTER TABLE `imports` ADD `cell_stats_last` text DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE `imports` ADD `error_summary_last` text;--> statement-breakpoint
UPDATE `imports` SET `cell_stats_last` = `cell_stats`, `error_summary_last` = `error_summary`;--> statement-breakpoint
ALTER TABLE `imports` DROP COLUMN `cell_stats`;--> statement-breakpoint
ALTER TABLE `imports` DROP COLUMN `error_summary`;--> statement-breakpoint
ALTER TABLE `imports` RENAME COLUMN `cell_stats_last` TO `cell_stats`;--> statement-breakpoint
ALTER TABLE `imports` RENAME COLUMN `error_summary_last` TO `error_summary`;--> statement-breakpoint
CREATE INDEX `imports_account_review_created` ON `imports` (`account_id`,`review_status`,`created_at`,`id`) WHERE "imports"."review_status" <> 'completed';--> statement-breakpoint
CREATE INDEX `imports_account_review_updated` ON `imports` (`account_id`,`review_status`,`updated_at`,`id`) WHERE "imports"."review_status" <> 'completed';
