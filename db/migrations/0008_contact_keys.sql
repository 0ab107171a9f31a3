ALTER TABLE `requests` ADD `email_key` text;--> statement-breakpoint
ALTER TABLE `requests` ADD `phone_key` text;--> statement-breakpoint
CREATE INDEX `requests_email_key_idx` ON `requests` (`email_key`,`id`);--> statement-breakpoint
CREATE INDEX `requests_phone_key_idx` ON `requests` (`phone_key`,`id`);
--> statement-breakpoint
-- Backfill with the rules of app/lib/contact-keys.ts (phone: digits only; 00… and 0… to 49…).
UPDATE `requests` SET `email_key` = CASE WHEN `email` LIKE '%@%' THEN lower(trim(`email`)) END;
--> statement-breakpoint
UPDATE `requests` SET `phone_key` = (
  SELECT CASE WHEN length(k) >= 5 THEN k END FROM (
    SELECT CASE
      WHEN ltrim(`requests`.`phone`) LIKE '+%' THEN d
      WHEN d LIKE '00%' THEN substr(d, 3)
      WHEN d LIKE '0%' THEN '49' || substr(d, 2)
      ELSE d END AS k
    FROM (SELECT replace(replace(replace(replace(replace(replace(replace(`requests`.`phone`,
      ' ', ''), '-', ''), '.', ''), '(', ''), ')', ''), '+', ''), '/', '') AS d)
  )
);
