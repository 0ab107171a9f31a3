CREATE TABLE `accessibility_feedback` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	`message` text NOT NULL,
	`location` text,
	`name` text,
	`email` text,
	`held` integer DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE INDEX `accessibility_feedback_created_idx` ON `accessibility_feedback` (`created_at`);
--> statement-breakpoint
-- Built-in bookings no longer promise a mail or a link that may never come: their location is
-- "Videocall" until a link is set.
UPDATE `appointments` SET `location` = 'Videocall' WHERE `provider` = 'builtin' AND `location` = 'Videocall (Link folgt per E-Mail)';
