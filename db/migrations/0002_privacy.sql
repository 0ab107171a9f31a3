-- Privacy (issue 13). ON DELETE cascade added by hand (drizzle-kit drops it on ALTER TABLE ADD):
-- erasing a request removes every mail carrying its personal data.
ALTER TABLE `mail_outbox` ADD `request_id` integer REFERENCES requests(id) ON DELETE cascade;--> statement-breakpoint
CREATE INDEX `mail_outbox_request_idx` ON `mail_outbox` (`request_id`);--> statement-breakpoint
-- Hand-added: FTS5 removes deleted terms from its index segments at once instead of leaving them
-- until the next merge (see ADR 100).
INSERT INTO requests_fts(requests_fts, rank) VALUES('secure-delete', 1);
