ALTER TABLE `admins` ADD `activated_at` integer;--> statement-breakpoint
-- When an account first became active (ADR 358): an inactive account without it has never been
-- active and awaits its activation; a deactivated one keeps it. Kept by the two triggers below, so
-- every way an account becomes active sets it (created active, the first admin, an activation,
-- an invitation activated directly), and a deactivation never clears it.
CREATE TRIGGER `admins_activated_insert` AFTER INSERT ON `admins`
WHEN new.`is_active` = 1 AND new.`activated_at` IS NULL
BEGIN
  UPDATE `admins` SET `activated_at` = new.`created_at` WHERE `id` = new.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `admins_activated_update` AFTER UPDATE OF `is_active` ON `admins`
WHEN new.`is_active` = 1 AND new.`activated_at` IS NULL
BEGIN
  UPDATE `admins` SET `activated_at` = cast(unixepoch('subsecond') * 1000 as integer) WHERE `id` = new.`id`;
END;
--> statement-breakpoint
-- Existing accounts: every active one and every one that has logged in was active once; so was an
-- inactive one the audit log shows activated after its creation (activated, then deactivated
-- before a first login). The earliest such activation, else the creation.
UPDATE `admins` SET `activated_at` = coalesce(
  (SELECT min(l.`at`) FROM `audit_log` l
    WHERE l.`action` = 'account-activated' AND l.`target` = `admins`.`username`
      AND l.`at` >= `admins`.`created_at`),
  `created_at`)
WHERE `is_active` = 1 OR `last_login` IS NOT NULL
  OR EXISTS (SELECT 1 FROM `audit_log` l
    WHERE l.`action` = 'account-activated' AND l.`target` = `admins`.`username`
      AND l.`at` >= `admins`.`created_at`);
