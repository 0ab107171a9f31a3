CREATE TABLE `assignment_rotation` (
	`id` integer PRIMARY KEY NOT NULL,
	`last_admin_id` integer,
	`assigned` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `digest_runs` (
	`admin_id` integer NOT NULL,
	`day` text NOT NULL,
	`outcome` text NOT NULL,
	`mail_id` integer,
	`at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`admin_id`, `day`),
	FOREIGN KEY (`admin_id`) REFERENCES `admins`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`mail_id`) REFERENCES `mail_outbox`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE TABLE `follow_ups` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`request_id` integer NOT NULL,
	`admin_id` integer NOT NULL,
	`due_day` text NOT NULL,
	`text` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	`done_at` integer,
	`done_by` integer,
	`answer` text,
	`answered_at` integer,
	FOREIGN KEY (`request_id`) REFERENCES `requests`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`admin_id`) REFERENCES `admins`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`done_by`) REFERENCES `admins`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `follow_ups_open_request_unique` ON `follow_ups` (`request_id`) WHERE "follow_ups"."done_at" IS NULL;--> statement-breakpoint
CREATE INDEX `follow_ups_open_admin_idx` ON `follow_ups` (`admin_id`,`due_day`) WHERE "follow_ups"."done_at" IS NULL;--> statement-breakpoint
CREATE INDEX `follow_ups_request_idx` ON `follow_ups` (`request_id`);--> statement-breakpoint
CREATE TABLE `request_notes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`request_id` integer NOT NULL,
	`admin_id` integer,
	`admin_name` text NOT NULL,
	`body` text NOT NULL,
	`mentions` text DEFAULT '[]' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	`edited_at` integer,
	FOREIGN KEY (`request_id`) REFERENCES `requests`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`admin_id`) REFERENCES `admins`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `request_notes_request_idx` ON `request_notes` (`request_id`,`id`);--> statement-breakpoint
ALTER TABLE `admins` ADD `morning_digest` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `admins` ADD `absent_from` text;--> statement-breakpoint
ALTER TABLE `admins` ADD `absent_until` text;