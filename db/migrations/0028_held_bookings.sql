DROP INDEX `appointments_builtin_host_slot_unique`;--> statement-breakpoint
ALTER TABLE `appointments` ADD `held_booking` text;--> statement-breakpoint
CREATE INDEX `appointments_held_idx` ON `appointments` (`held_booking`,`created_at`) WHERE held_booking IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `appointments_builtin_host_slot_unique` ON `appointments` (`start_time`, coalesce(`host_admin_id`, 0)) WHERE provider = 'builtin' AND status NOT IN ('CANCELLED', 'HELD');--> statement-breakpoint
-- Bookings of requests still held in the quarantine (ADR 355): a Cal.com one (status HELD) waits
-- for its release, a built-in one holds its slot as before.
UPDATE `appointments` SET `held_booking` = CASE WHEN `status` = 'HELD' THEN 'waits' ELSE 'holds' END WHERE `request_id` IN (SELECT `id` FROM `requests` WHERE `quarantined_at` IS NOT NULL);
