CREATE TABLE `request_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`request_id` integer NOT NULL,
	`direction` text DEFAULT 'out' NOT NULL,
	`subject` text NOT NULL,
	`body` text NOT NULL,
	`admin_id` integer,
	`admin_name` text NOT NULL,
	`mail_id` integer,
	`sent_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`request_id`) REFERENCES `requests`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`admin_id`) REFERENCES `admins`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`mail_id`) REFERENCES `mail_outbox`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `request_messages_request_idx` ON `request_messages` (`request_id`,`id`);--> statement-breakpoint
ALTER TABLE `mail_outbox` ADD `reply_to` text;--> statement-breakpoint
ALTER TABLE `requests` ADD `voice_transcript` text;--> statement-breakpoint
ALTER TABLE `requests` ADD `voice_transcript_status` text;--> statement-breakpoint
ALTER TABLE `requests` ADD `voice_transcript_attempts` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `requests` ADD `voice_transcript_due_at` integer;--> statement-breakpoint
CREATE INDEX `requests_transcript_pending_idx` ON `requests` (`voice_transcript_due_at`) WHERE "requests"."voice_transcript_status" = 'pending';
--> statement-breakpoint
-- Recordings made before transcription existed are not sent anywhere on their own (ADR 272).
UPDATE `requests` SET `voice_transcript_status` = 'off' WHERE `audio_key` IS NOT NULL;
--> statement-breakpoint
-- The search index gains the transcript (FTS5 tables cannot add a column: rebuilt, same tokenizer).
DROP TRIGGER IF EXISTS `requests_fts_ai`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `requests_fts_ad`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `requests_fts_au`;
--> statement-breakpoint
DROP TABLE IF EXISTS `requests_fts`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `requests_fts` USING fts5(
  name, email, phone, phone_digits, company_description, description, summary, voice_transcript,
  tokenize = 'unicode61 remove_diacritics 2',
  prefix = '2 3'
);
--> statement-breakpoint
INSERT INTO requests_fts(requests_fts, rank) VALUES('secure-delete', 1);
--> statement-breakpoint
INSERT INTO requests_fts(rowid, name, email, phone, phone_digits, company_description, description, summary, voice_transcript)
  SELECT id, name, email, phone,
    replace(replace(replace(replace(replace(replace(replace(phone, ' ', ''), '-', ''), '.', ''), '(', ''), ')', ''), '+', ''), '/', ''),
    company_description, description, coalesce(summary, ''), coalesce(voice_transcript, '')
  FROM requests;
--> statement-breakpoint
CREATE TRIGGER `requests_fts_ai` AFTER INSERT ON `requests` BEGIN
  INSERT INTO requests_fts(rowid, name, email, phone, phone_digits, company_description, description, summary, voice_transcript)
  VALUES (new.id, new.name, new.email, new.phone,
    replace(replace(replace(replace(replace(replace(replace(new.phone, ' ', ''), '-', ''), '.', ''), '(', ''), ')', ''), '+', ''), '/', ''),
    new.company_description, new.description, coalesce(new.summary, ''), coalesce(new.voice_transcript, ''));
END;
--> statement-breakpoint
CREATE TRIGGER `requests_fts_ad` AFTER DELETE ON `requests` BEGIN
  DELETE FROM requests_fts WHERE rowid = old.id;
END;
--> statement-breakpoint
CREATE TRIGGER `requests_fts_au` AFTER UPDATE OF name, email, phone, company_description, description, summary, voice_transcript ON `requests` BEGIN
  DELETE FROM requests_fts WHERE rowid = old.id;
  INSERT INTO requests_fts(rowid, name, email, phone, phone_digits, company_description, description, summary, voice_transcript)
  VALUES (new.id, new.name, new.email, new.phone,
    replace(replace(replace(replace(replace(replace(replace(new.phone, ' ', ''), '-', ''), '.', ''), '(', ''), ')', ''), '+', ''), '/', ''),
    new.company_description, new.description, coalesce(new.summary, ''), coalesce(new.voice_transcript, ''));
END;
