ALTER TABLE `appointments` ADD `sequence` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `mail_outbox` ADD `attachments` text;--> statement-breakpoint
ALTER TABLE `mail_outbox` ADD `appointment_id` integer REFERENCES appointments(id) ON DELETE cascade;--> statement-breakpoint
ALTER TABLE `mail_outbox` ADD `links_expire_at` integer;--> statement-breakpoint
CREATE INDEX `mail_outbox_appointment_idx` ON `mail_outbox` (`appointment_id`);