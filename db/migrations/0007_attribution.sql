ALTER TABLE `requests` ADD `attribution_source` text;--> statement-breakpoint
ALTER TABLE `requests` ADD `attribution_medium` text;--> statement-breakpoint
ALTER TABLE `requests` ADD `attribution_campaign` text;--> statement-breakpoint
ALTER TABLE `requests` ADD `attribution_referrer` text;--> statement-breakpoint
ALTER TABLE `requests` ADD `attribution_landing_path` text;--> statement-breakpoint
CREATE INDEX `requests_source_idx` ON `requests` (`archived`,`attribution_source`,`created_at`);