ALTER TABLE `requests` ADD `quarantined_at` integer;--> statement-breakpoint
CREATE INDEX `requests_quarantined_idx` ON `requests` (`quarantined_at`) WHERE "requests"."quarantined_at" IS NOT NULL;