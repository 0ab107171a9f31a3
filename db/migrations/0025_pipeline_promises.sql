CREATE TABLE `request_stage_counts` (
	`stage` text NOT NULL,
	`bucket` integer NOT NULL,
	`n` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`stage`, `bucket`)
);
--> statement-breakpoint
ALTER TABLE `request_status_history` ADD `from_stage` text;--> statement-breakpoint
ALTER TABLE `request_status_history` ADD `to_stage` text;--> statement-breakpoint
ALTER TABLE `request_status_history` ADD `reason` text;--> statement-breakpoint
ALTER TABLE `request_status_history` ADD `cause` text;--> statement-breakpoint
ALTER TABLE `requests` ADD `stage` text DEFAULT 'new' NOT NULL;--> statement-breakpoint
ALTER TABLE `requests` ADD `lost_reason` text;--> statement-breakpoint
ALTER TABLE `requests` ADD `contact_due_at` integer;--> statement-breakpoint
ALTER TABLE `requests` ADD `contact_done_at` integer;--> statement-breakpoint
ALTER TABLE `requests` ADD `trial_due_at` integer;--> statement-breakpoint
ALTER TABLE `requests` ADD `trial_done_at` integer;--> statement-breakpoint
ALTER TABLE `requests` ADD `trial_url` text;--> statement-breakpoint
CREATE INDEX `requests_stage_idx` ON `requests` (`stage`,`archived`,`created_at`);--> statement-breakpoint
CREATE INDEX `requests_contact_open_idx` ON `requests` (`contact_due_at`,`status`,`archived`) WHERE "requests"."contact_done_at" IS NULL AND "requests"."contact_due_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `requests_trial_open_idx` ON `requests` (`trial_due_at`,`status`,`archived`) WHERE "requests"."trial_done_at" IS NULL AND "requests"."trial_due_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `requests_contact_done_idx` ON `requests` (`contact_due_at`,`contact_done_at`) WHERE "requests"."contact_done_at" IS NOT NULL AND "requests"."contact_due_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `requests_trial_done_idx` ON `requests` (`trial_due_at`,`trial_done_at`) WHERE "requests"."trial_done_at" IS NOT NULL AND "requests"."trial_due_at" IS NOT NULL;--> statement-breakpoint
-- Requests stored before the pipeline (ADR 345) go to the first stage of their status in the
-- default list; their promises stay unknown (NULL: none was tracked when they came in, ADR 346).
UPDATE `requests` SET `stage` = CASE `status` WHEN 'In Progress' THEN 'contacted' ELSE 'won' END
WHERE `status` <> 'New';
--> statement-breakpoint
-- Active requests per stage (ADR 347), filled once here, then kept by the triggers below like
-- request_counts (ADR 275): only requests neither archived nor held; bucket 0 = all, > 0 = that
-- admin's.
INSERT INTO `request_stage_counts` (`stage`, `bucket`, `n`)
  SELECT `stage`, 0, count(*) FROM `requests`
  WHERE `archived` = 0 AND `quarantined_at` IS NULL GROUP BY 1;
--> statement-breakpoint
INSERT INTO `request_stage_counts` (`stage`, `bucket`, `n`)
  SELECT r.`stage`, a.`admin_id`, count(*) FROM `request_assignees` a JOIN `requests` r ON r.`id` = a.`request_id`
  WHERE r.`archived` = 0 AND r.`quarantined_at` IS NULL GROUP BY 1, 2;
--> statement-breakpoint
CREATE TRIGGER `request_stage_counts_insert` AFTER INSERT ON `requests`
WHEN new.`archived` = 0 AND new.`quarantined_at` IS NULL BEGIN
  INSERT INTO `request_stage_counts` (`stage`, `bucket`, `n`) VALUES (new.`stage`, 0, 1)
  ON CONFLICT DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
-- BEFORE: the request's assignees are still there (request_stage_counts_unassign skips rows whose
-- request is gone, so the cascade does not count them twice).
CREATE TRIGGER `request_stage_counts_delete` BEFORE DELETE ON `requests`
WHEN old.`archived` = 0 AND old.`quarantined_at` IS NULL BEGIN
  UPDATE `request_stage_counts` SET `n` = `n` - 1
  WHERE `stage` = old.`stage`
    AND (`bucket` = 0 OR `bucket` IN (SELECT `admin_id` FROM `request_assignees` WHERE `request_id` = old.`id`));
END;
--> statement-breakpoint
CREATE TRIGGER `request_stage_counts_move` AFTER UPDATE OF `stage`, `archived`, `quarantined_at` ON `requests`
WHEN old.`stage` IS NOT new.`stage` OR old.`archived` IS NOT new.`archived`
  OR (old.`quarantined_at` IS NULL) <> (new.`quarantined_at` IS NULL)
BEGIN
  UPDATE `request_stage_counts` SET `n` = `n` - 1
  WHERE old.`archived` = 0 AND old.`quarantined_at` IS NULL AND `stage` = old.`stage`
    AND (`bucket` = 0 OR `bucket` IN (SELECT `admin_id` FROM `request_assignees` WHERE `request_id` = old.`id`));
  INSERT INTO `request_stage_counts` (`stage`, `bucket`, `n`)
    SELECT new.`stage`, b.`bucket`, 1
    FROM (SELECT 0 AS `bucket` UNION ALL SELECT `admin_id` FROM `request_assignees` WHERE `request_id` = new.`id`) AS b
    WHERE new.`archived` = 0 AND new.`quarantined_at` IS NULL
    ON CONFLICT DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `request_stage_counts_assign` AFTER INSERT ON `request_assignees` BEGIN
  INSERT INTO `request_stage_counts` (`stage`, `bucket`, `n`)
    SELECT r.`stage`, new.`admin_id`, 1 FROM `requests` r
    WHERE r.`id` = new.`request_id` AND r.`archived` = 0 AND r.`quarantined_at` IS NULL
    ON CONFLICT DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `request_stage_counts_unassign` AFTER DELETE ON `request_assignees` BEGIN
  UPDATE `request_stage_counts` SET `n` = `n` - 1
  WHERE `bucket` = old.`admin_id` AND `stage` = (
    SELECT `stage` FROM `requests`
    WHERE `id` = old.`request_id` AND `archived` = 0 AND `quarantined_at` IS NULL);
END;
