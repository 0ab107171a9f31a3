CREATE TABLE `busy_feed_cache` (
	`feed_id` text PRIMARY KEY NOT NULL,
	`busy` text NOT NULL,
	`fetched_at` integer,
	`checked_at` integer,
	`last_error` text,
	`next_fetch_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `calendar_feed_tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token_hash` text NOT NULL,
	`admin_id` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	`last_used_at` integer,
	FOREIGN KEY (`admin_id`) REFERENCES `admins`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `calendar_feed_tokens_token_hash_unique` ON `calendar_feed_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `calendar_feed_tokens_admin_idx` ON `calendar_feed_tokens` (`admin_id`);--> statement-breakpoint
ALTER TABLE `appointments` ADD `video_url` text;