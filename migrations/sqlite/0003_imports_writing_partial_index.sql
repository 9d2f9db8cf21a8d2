DROP INDEX `imports_status`;--> statement-breakpoint
CREATE INDEX `imports_writing` ON `imports` (`status`) WHERE "imports"."status" = 'writing';