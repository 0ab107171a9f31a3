CREATE TABLE `calendar_busy` (
	`connection_id` integer NOT NULL,
	`day` text NOT NULL,
	`busy` text NOT NULL,
	`fetched_at` integer NOT NULL,
	PRIMARY KEY(`connection_id`, `day`),
	FOREIGN KEY (`connection_id`) REFERENCES `calendar_connections`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `calendar_connections` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`admin_id` integer NOT NULL,
	`server_url` text NOT NULL,
	`principal_url` text,
	`home_url` text,
	`username` text NOT NULL,
	`password` text NOT NULL,
	`calendars` text NOT NULL,
	`busy_calendars` text NOT NULL,
	`write_calendar` text,
	`takes_demos` integer DEFAULT false NOT NULL,
	`last_error` text,
	`error_kind` text,
	`checked_at` integer,
	`last_ok_at` integer,
	`sync_token` text,
	`next_sync_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`admin_id`) REFERENCES `admins`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `calendar_connections_admin_id_unique` ON `calendar_connections` (`admin_id`);--> statement-breakpoint
CREATE TABLE `calendar_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`appointment_id` integer,
	`connection_id` integer NOT NULL,
	`calendar_url` text NOT NULL,
	`uid` text NOT NULL,
	`href` text,
	`etag` text,
	`present` integer DEFAULT true NOT NULL,
	`start_time` integer,
	`end_time` integer,
	`sequence` integer DEFAULT 0 NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	`last_error` text,
	`calendar_change` text,
	`changed_start` integer,
	`changed_end` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`connection_id`) REFERENCES `calendar_connections`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `calendar_events_uid_unique` ON `calendar_events` (`connection_id`,`calendar_url`,`uid`);--> statement-breakpoint
CREATE INDEX `calendar_events_appointment_idx` ON `calendar_events` (`appointment_id`);--> statement-breakpoint
CREATE INDEX `calendar_events_due_idx` ON `calendar_events` (`status`,`next_attempt_at`);--> statement-breakpoint
DROP INDEX `appointments_builtin_slot_unique`;--> statement-breakpoint
ALTER TABLE `appointments` ADD `host_admin_id` integer REFERENCES admins(id) ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE `appointments` ADD `calendar_note` text;--> statement-breakpoint
CREATE UNIQUE INDEX `appointments_builtin_host_slot_unique` ON `appointments` (`start_time`, coalesce(`host_admin_id`, 0)) WHERE provider = 'builtin' AND status <> 'CANCELLED';--> statement-breakpoint
-- ADR 336 (hand-written): a deleted appointment (erasure, retention, the API's DELETE) takes its
-- demo events out of the calendars: each is marked absent and the event outbox deletes it.
CREATE TRIGGER `appointments_calendar_events_ad` AFTER DELETE ON `appointments` BEGIN
  UPDATE `calendar_events`
    SET `present` = 0, `appointment_id` = NULL, `status` = 'pending', `attempts` = 0,
        `next_attempt_at` = (cast(unixepoch('subsecond') * 1000 as integer))
    WHERE `appointment_id` = old.`id`;
END;
