/** iCalendar objects for the CalDAV tests (ADR 335): time zones, series, the own demo. */

export const VTIMEZONE_BERLIN = `BEGIN:VTIMEZONE
TZID:Europe/Berlin
BEGIN:DAYLIGHT
TZOFFSETFROM:+0100
TZOFFSETTO:+0200
TZNAME:CEST
DTSTART:19700329T020000
RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU
END:DAYLIGHT
BEGIN:STANDARD
TZOFFSETFROM:+0200
TZOFFSETTO:+0100
TZNAME:CET
DTSTART:19701025T030000
RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU
END:STANDARD
END:VTIMEZONE`;

export const VTIMEZONE_NEW_YORK = `BEGIN:VTIMEZONE
TZID:America/New_York
BEGIN:DAYLIGHT
TZOFFSETFROM:-0500
TZOFFSETTO:-0400
TZNAME:EDT
DTSTART:20070311T020000
RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU
END:DAYLIGHT
BEGIN:STANDARD
TZOFFSETFROM:-0400
TZOFFSETTO:-0500
TZNAME:EST
DTSTART:20071104T020000
RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU
END:STANDARD
END:VTIMEZONE`;

/** One VEVENT in a VCALENDAR (times as given: "TZID=Europe/Berlin:20300304T090000" or "…Z"). */
export function eventIcs(options: {
  uid: string;
  start: string;
  end: string;
  summary?: string;
  rrule?: string;
  exdate?: string;
  timezones?: string[];
  extra?: string;
}): string {
  const prop = (name: string, value: string) =>
    value.includes(":") ? `${name};${value}` : `${name}:${value}`;
  return [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Tests//CalDAV//DE",
    ...(options.timezones ?? []),
    "BEGIN:VEVENT",
    `UID:${options.uid}`,
    "DTSTAMP:20290101T000000Z",
    prop("DTSTART", options.start),
    prop("DTEND", options.end),
    `SUMMARY:${options.summary ?? "Besprechung"}`,
    ...(options.rrule ? [`RRULE:${options.rrule}`] : []),
    ...(options.exdate ? [prop("EXDATE", options.exdate)] : []),
    ...(options.extra ? [options.extra] : []),
    "END:VEVENT",
    "END:VCALENDAR",
    "",
  ].join("\r\n");
}

/** "2030-03-04T09:00:00Z" → epoch ms. */
export const at = (iso: string) => new Date(iso).getTime();
