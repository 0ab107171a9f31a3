ALTER TABLE `requests` ADD `preparation_updated_at` integer;--> statement-breakpoint
-- Rows from before: their preparation may have changed any time up to updated_at (conservative).
UPDATE `requests` SET `preparation_updated_at` = `updated_at` WHERE `preparation_data` <> '{}';
