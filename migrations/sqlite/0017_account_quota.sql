-- The bytes each import's body had (IMPORTD_ACCOUNT_QUOTA_BYTES counts them); imports stored before this
-- migration count 0, their size was never recorded.
ALTER TABLE `imports` ADD `bytes` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `import_counts` ADD `bytes` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
DROP TRIGGER `imports_count_insert`;--> statement-breakpoint
DROP TRIGGER `imports_count_update`;--> statement-breakpoint
DROP TRIGGER `imports_count_delete`;--> statement-breakpoint
-- The counters (complete imports and their bytes) move with every row entering or leaving status 'complete',
-- whatever the statement (completion, deletion, hiding by retention or erasure, an account's cascade), in that
-- statement's transaction. `bytes` is set by the completion itself, in the same UPDATE as the status.
CREATE TRIGGER `imports_count_insert` AFTER INSERT ON `imports` WHEN new.status = 'complete' BEGIN
	INSERT INTO `import_counts` (`account_id`, `complete`, `bytes`) VALUES (new.account_id, 1, new.bytes)
		ON CONFLICT (`account_id`) DO UPDATE SET `complete` = `complete` + 1, `bytes` = `bytes` + excluded.`bytes`;
END;
--> statement-breakpoint
CREATE TRIGGER `imports_count_update` AFTER UPDATE OF `status`, `account_id`, `bytes` ON `imports`
	WHEN (old.status = 'complete' OR new.status = 'complete')
		AND (old.status IS NOT new.status OR old.account_id IS NOT new.account_id OR old.bytes IS NOT new.bytes)
BEGIN
	UPDATE `import_counts` SET `complete` = `complete` - 1, `bytes` = `bytes` - old.bytes WHERE old.status = 'complete' AND `account_id` = old.account_id;
	INSERT INTO `import_counts` (`account_id`, `complete`, `bytes`) SELECT new.account_id, 1, new.bytes WHERE new.status = 'complete'
		ON CONFLICT (`account_id`) DO UPDATE SET `complete` = `complete` + 1, `bytes` = `bytes` + excluded.`bytes`;
END;
--> statement-breakpoint
CREATE TRIGGER `imports_count_delete` AFTER DELETE ON `imports` WHEN old.status = 'complete' BEGIN
	UPDATE `import_counts` SET `complete` = `complete` - 1, `bytes` = `bytes` - old.bytes WHERE `account_id` = old.account_id;
END;
