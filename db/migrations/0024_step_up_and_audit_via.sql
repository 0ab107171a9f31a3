ALTER TABLE `audit_log` ADD `via` text;--> statement-breakpoint
ALTER TABLE `sessions` ADD `step_up_at` integer;