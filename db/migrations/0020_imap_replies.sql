ALTER TABLE `mail_outbox` ADD `cc` text;--> statement-breakpoint
ALTER TABLE `request_messages` ADD `message_id` text;--> statement-breakpoint
ALTER TABLE `request_messages` ADD `read_at` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `request_messages_message_id_idx` ON `request_messages` (`message_id`);