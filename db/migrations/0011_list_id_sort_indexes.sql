CREATE INDEX `requests_archived_id_idx` ON `requests` (`archived`,`id`);--> statement-breakpoint
CREATE INDEX `requests_status_id_idx` ON `requests` (`archived`,`status`,`id`);--> statement-breakpoint
CREATE INDEX `requests_source_id_idx` ON `requests` (`archived`,`attribution_source`,`id`);