-- Appointment rows stored the whole Cal.com payload (attendees' names, e-mails, responses), and a
-- webhook-created row took its name from the booking title ("Demo between Olga and Paula").
UPDATE `appointments`
SET `event_type_name` = coalesce(json_extract(`raw_data`, '$.eventTitle'), 'Termin')
WHERE `provider` = 'calcom' AND json_valid(`raw_data`) AND json_type(`raw_data`) = 'object'
  AND `event_type_name` = json_extract(`raw_data`, '$.title');
--> statement-breakpoint
-- Keep only the plain, non-personal keys that app/server/appointments/provider-data.server.ts keeps.
UPDATE `appointments` SET `raw_data` = (
  SELECT CASE WHEN count(*) = 0 THEN NULL ELSE json_group_object(`key`, `value`) END
  FROM json_each(`appointments`.`raw_data`)
  WHERE `key` IN ('provider', 'uid', 'id', 'status', 'start', 'end', 'startTime', 'endTime',
    'length', 'duration', 'eventTitle', 'type', 'eventTypeId', 'eventTypeSlug', 'rescheduleUid',
    'rescheduled')
    AND `type` NOT IN ('object', 'array')
)
WHERE `raw_data` IS NOT NULL AND json_valid(`raw_data`) AND json_type(`raw_data`) = 'object';
