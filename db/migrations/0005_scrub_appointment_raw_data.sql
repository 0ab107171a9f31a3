-- Appointment rows stored the whole Cal.com payload (attendees' names, e-mails, responses).
-- Keep only the plain, non-personal keys that app/server/appointments/provider-data.server.ts keeps.
UPDATE `appointments` SET `raw_data` = (
  SELECT CASE WHEN count(*) = 0 THEN NULL ELSE json_group_object(`key`, `value`) END
  FROM json_each(`appointments`.`raw_data`)
  WHERE `key` IN ('provider', 'uid', 'id', 'status', 'start', 'end', 'startTime', 'endTime',
    'length', 'duration', 'title', 'type', 'eventTypeId', 'eventTypeSlug', 'rescheduleUid',
    'rescheduled')
    AND `type` NOT IN ('object', 'array')
)
WHERE `raw_data` IS NOT NULL AND json_valid(`raw_data`) AND json_type(`raw_data`) = 'object';
