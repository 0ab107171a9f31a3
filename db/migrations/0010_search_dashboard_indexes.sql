ALTER TABLE `requests` ADD `first_status_change_at` integer;--> statement-breakpoint
CREATE INDEX `requests_search_filter_idx` ON `requests` (`id`,`archived`,`status`,`created_at`,`attribution_source`);--> statement-breakpoint
CREATE INDEX `requests_created_idx` ON `requests` (`created_at`);--> statement-breakpoint
CREATE INDEX `requests_source_created_idx` ON `requests` (`attribution_source`,`created_at`);--> statement-breakpoint
CREATE INDEX `requests_affiliate_created_idx` ON `requests` (`affiliate_code`,`created_at`);--> statement-breakpoint
CREATE INDEX `requests_first_change_idx` ON `requests` (("first_status_change_at" - "created_at"),`created_at`);--> statement-breakpoint
-- The first status change per request, kept beside the request (ADR 175): the earliest history row.
UPDATE `requests` SET `first_status_change_at` = (
  SELECT min(`changed_at`) FROM `request_status_history` WHERE `request_id` = `requests`.`id`
);
--> statement-breakpoint
CREATE TRIGGER `request_status_history_first_change` AFTER INSERT ON `request_status_history` BEGIN
  UPDATE `requests` SET `first_status_change_at` = new.`changed_at`
  WHERE `id` = new.`request_id`
    AND (`first_status_change_at` IS NULL OR `first_status_change_at` > new.`changed_at`);
END;
