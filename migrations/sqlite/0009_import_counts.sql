CREATE TABLE `import_counts` (
	`account_id` text PRIMARY KEY NOT NULL,
	`complete` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- The counter moves with every row entering or leaving status 'complete', whatever the statement (completion,
-- deletion, hiding by retention or erasure, an account's cascade), in that statement's transaction.
CREATE TRIGGER `imports_count_insert` AFTER INSERT ON `imports` WHEN new.status = 'complete' BEGIN
	INSERT INTO `import_counts` (`account_id`, `complete`) VALUES (new.account_id, 1)
		ON CONFLICT (`account_id`) DO UPDATE SET `complete` = `complete` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `imports_count_update` AFTER UPDATE OF `status`, `account_id` ON `imports`
	WHEN (old.status = 'complete' OR new.status = 'complete') AND (old.status IS NOT new.status OR old.account_id IS NOT new.account_id)
BEGIN
	UPDATE `import_counts` SET `complete` = `complete` - 1 WHERE old.status = 'complete' AND `account_id` = old.account_id;
	INSERT INTO `import_counts` (`account_id`, `complete`) SELECT new.account_id, 1 WHERE new.status = 'complete'
		ON CONFLICT (`account_id`) DO UPDATE SET `complete` = `complete` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `imports_count_delete` AFTER DELETE ON `imports` WHEN old.status = 'complete' BEGIN
	UPDATE `import_counts` SET `complete` = `complete` - 1 WHERE `account_id` = old.account_id;
END;
--> statement-breakpoint
INSERT INTO `import_counts` (`account_id`, `complete`) SELECT `account_id`, count(*) FROM `imports` WHERE `status` = 'complete' GROUP BY `account_id`;
