CREATE TABLE `login_challenges` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`admin_id` integer NOT NULL,
	`redirect_to` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`admin_id`) REFERENCES `admins`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `login_challenges_admin_idx` ON `login_challenges` (`admin_id`);--> statement-breakpoint
CREATE TABLE `recovery_codes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`admin_id` integer NOT NULL,
	`code_hash` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	`used_at` integer,
	FOREIGN KEY (`admin_id`) REFERENCES `admins`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `recovery_codes_admin_idx` ON `recovery_codes` (`admin_id`);--> statement-breakpoint
ALTER TABLE `admins` ADD `totp_secret` text;--> statement-breakpoint
ALTER TABLE `admins` ADD `totp_last_step` integer;--> statement-breakpoint
ALTER TABLE `admins` ADD `totp_enabled` integer DEFAULT false NOT NULL;