CREATE TABLE `change_counters` (
	`name` text PRIMARY KEY NOT NULL,
	`n` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `request_counts` (
	`archived` integer NOT NULL,
	`quarantined` integer NOT NULL,
	`status` text NOT NULL,
	`bucket` integer NOT NULL,
	`n` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`archived`, `quarantined`, `status`, `bucket`)
);
--> statement-breakpoint
CREATE INDEX `requests_summary_pending_idx` ON `requests` (`id`) WHERE "requests"."summary" IS NULL AND "requests"."summary_attempts" < 3 AND "requests"."quarantined_at" IS NULL;--> statement-breakpoint
CREATE INDEX `requests_summary_failed_idx` ON `requests` (`id`) WHERE "requests"."summary" IS NULL AND "requests"."summary_attempts" > 0;--> statement-breakpoint
CREATE INDEX `requests_audio_key_idx` ON `requests` (`audio_key`) WHERE "requests"."audio_key" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `requests_retention_idx` ON `requests` (`updated_at`) WHERE "requests"."email" <> '';--> statement-breakpoint
-- Exact counts per list bucket (issue 31, ADR 275), filled once here, then kept by the triggers
-- below. bucket 0 = every request, -1 = assigned to anyone, > 0 = assigned to that admin.
INSERT INTO `request_counts` (`archived`, `quarantined`, `status`, `bucket`, `n`)
  SELECT `archived`, `quarantined_at` IS NOT NULL, `status`, 0, count(*) FROM `requests` GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO `request_counts` (`archived`, `quarantined`, `status`, `bucket`, `n`)
  SELECT r.`archived`, r.`quarantined_at` IS NOT NULL, r.`status`, a.`admin_id`, count(*)
  FROM `request_assignees` a JOIN `requests` r ON r.`id` = a.`request_id` GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
INSERT INTO `request_counts` (`archived`, `quarantined`, `status`, `bucket`, `n`)
  SELECT r.`archived`, r.`quarantined_at` IS NOT NULL, r.`status`, -1, count(*)
  FROM `requests` r WHERE r.`id` IN (SELECT `request_id` FROM `request_assignees`) GROUP BY 1, 2, 3;
--> statement-breakpoint
CREATE TRIGGER `request_counts_insert` AFTER INSERT ON `requests` BEGIN
  INSERT INTO `request_counts` (`archived`, `quarantined`, `status`, `bucket`, `n`)
  VALUES (new.`archived`, new.`quarantined_at` IS NOT NULL, new.`status`, 0, 1)
  ON CONFLICT DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
-- BEFORE: the request's assignees are still there (ON DELETE CASCADE removes them before the
-- AFTER triggers run; request_counts_unassign skips rows whose request is gone).
CREATE TRIGGER `request_counts_delete` BEFORE DELETE ON `requests` BEGIN
  UPDATE `request_counts` SET `n` = `n` - 1
  WHERE `archived` = old.`archived` AND `quarantined` = (old.`quarantined_at` IS NOT NULL)
    AND `status` = old.`status`
    AND (`bucket` = 0
      OR `bucket` IN (SELECT `admin_id` FROM `request_assignees` WHERE `request_id` = old.`id`)
      OR (`bucket` = -1 AND EXISTS (SELECT 1 FROM `request_assignees` WHERE `request_id` = old.`id`)));
END;
--> statement-breakpoint
CREATE TRIGGER `request_counts_move` AFTER UPDATE OF `archived`, `status`, `quarantined_at` ON `requests`
WHEN old.`archived` IS NOT new.`archived` OR old.`status` IS NOT new.`status`
  OR (old.`quarantined_at` IS NULL) <> (new.`quarantined_at` IS NULL)
BEGIN
  UPDATE `request_counts` SET `n` = `n` - 1
  WHERE `archived` = old.`archived` AND `quarantined` = (old.`quarantined_at` IS NOT NULL)
    AND `status` = old.`status`
    AND (`bucket` = 0
      OR `bucket` IN (SELECT `admin_id` FROM `request_assignees` WHERE `request_id` = old.`id`)
      OR (`bucket` = -1 AND EXISTS (SELECT 1 FROM `request_assignees` WHERE `request_id` = old.`id`)));
  INSERT INTO `request_counts` (`archived`, `quarantined`, `status`, `bucket`, `n`)
    SELECT new.`archived`, new.`quarantined_at` IS NOT NULL, new.`status`, b.`bucket`, 1
    FROM (SELECT 0 AS `bucket`
      UNION ALL SELECT -1 WHERE EXISTS (SELECT 1 FROM `request_assignees` WHERE `request_id` = new.`id`)
      UNION ALL SELECT `admin_id` FROM `request_assignees` WHERE `request_id` = new.`id`) AS b
    WHERE true
    ON CONFLICT DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `request_counts_assign` AFTER INSERT ON `request_assignees` BEGIN
  INSERT INTO `request_counts` (`archived`, `quarantined`, `status`, `bucket`, `n`)
    SELECT r.`archived`, r.`quarantined_at` IS NOT NULL, r.`status`, b.`bucket`, 1
    FROM `requests` r, (SELECT new.`admin_id` AS `bucket`
      UNION ALL SELECT -1 WHERE (SELECT count(*) FROM `request_assignees` WHERE `request_id` = new.`request_id`) = 1) AS b
    WHERE r.`id` = new.`request_id`
    ON CONFLICT DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `request_counts_unassign` AFTER DELETE ON `request_assignees` BEGIN
  UPDATE `request_counts` SET `n` = `n` - 1
  WHERE (`archived`, `quarantined`, `status`) =
      (SELECT `archived`, `quarantined_at` IS NOT NULL, `status` FROM `requests` WHERE `id` = old.`request_id`)
    AND (`bucket` = old.`admin_id`
      OR (`bucket` = -1 AND NOT EXISTS (SELECT 1 FROM `request_assignees` WHERE `request_id` = old.`request_id`)));
END;
--> statement-breakpoint
CREATE TRIGGER `request_counts_reassign` AFTER UPDATE OF `request_id`, `admin_id` ON `request_assignees` BEGIN
  SELECT RAISE(ABORT, 'request_assignees rows are deleted and inserted, never updated');
END;
--> statement-breakpoint
-- The conversion dashboard's cache key (ADR 275): bumped by every write that can change a figure.
INSERT INTO `change_counters` (`name`, `n`) VALUES ('dashboard', 0);
--> statement-breakpoint
CREATE TRIGGER `dashboard_changed_insert` AFTER INSERT ON `requests` BEGIN
  UPDATE `change_counters` SET `n` = `n` + 1 WHERE `name` = 'dashboard';
END;
--> statement-breakpoint
CREATE TRIGGER `dashboard_changed_delete` AFTER DELETE ON `requests` BEGIN
  UPDATE `change_counters` SET `n` = `n` + 1 WHERE `name` = 'dashboard';
END;
--> statement-breakpoint
CREATE TRIGGER `dashboard_changed_update` AFTER UPDATE OF `created_at`, `attribution_source`,
  `attribution_referrer`, `affiliate_code`, `first_status_change_at`, `quarantined_at` ON `requests` BEGIN
  UPDATE `change_counters` SET `n` = `n` + 1 WHERE `name` = 'dashboard';
END;
--> statement-breakpoint
CREATE TRIGGER `dashboard_changed_appointment_insert` AFTER INSERT ON `appointments` BEGIN
  UPDATE `change_counters` SET `n` = `n` + 1 WHERE `name` = 'dashboard';
END;
--> statement-breakpoint
CREATE TRIGGER `dashboard_changed_appointment_update` AFTER UPDATE OF `status`, `request_id` ON `appointments` BEGIN
  UPDATE `change_counters` SET `n` = `n` + 1 WHERE `name` = 'dashboard';
END;
--> statement-breakpoint
CREATE TRIGGER `dashboard_changed_appointment_delete` AFTER DELETE ON `appointments` BEGIN
  UPDATE `change_counters` SET `n` = `n` + 1 WHERE `name` = 'dashboard';
END;
