import { describe, expect, it } from "vitest";
import { busySpansOf, expandInThisProcess } from "./expand";
import { CALENDAR_LIMITS, mergeSpans } from "./job";

const VTIMEZONE_BERLIN = `BEGIN:VTIMEZONE
TZID:W. Europe Standard Time
BEGIN:STANDARD
DTSTART:16010101T030000
TZOFFSETFROM:+0200
TZOFFSETTO:+0100
RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10
END:STANDARD
BEGIN:DAYLIGHT
DTSTART:16010101T020000
TZOFFSETFROM:+0100
TZOFFSETTO:+0200
RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3
END:DAYLIGHT
END:VTIMEZONE`;

const calendar = (...parts: string[]) =>
  ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//DE", ...parts, "END:VCALENDAR"].join("\r\n");

const iso = (spans: { start: number; end: number }[]) =>
  spans.map((s) => [new Date(s.start).toISOString(), new Date(s.end).toISOString()]);

const FROM = new Date("2026-03-01T00:00:00Z");
const TO = new Date("2026-05-01T00:00:00Z");

describe("busy times of an ICS feed (ical.js, in the calendar worker)", () => {
  it("a weekly event with an IANA TZID follows Berlin's DST change; EXDATE and a moved occurrence count", () => {
    const text = calendar(
      "BEGIN:VEVENT",
      "UID:weekly@test",
      "DTSTAMP:20260101T000000Z",
      "SUMMARY:Geheimes Teammeeting",
      "ATTENDEE:mailto:chef@example.com",
      "DTSTART;TZID=Europe/Berlin:20260316T100000",
      "DTEND;TZID=Europe/Berlin:20260316T110000",
      "RRULE:FREQ=WEEKLY;COUNT=4",
      "EXDATE;TZID=Europe/Berlin:20260323T100000",
      "END:VEVENT",
      "BEGIN:VEVENT",
      "UID:weekly@test",
      "DTSTAMP:20260101T000000Z",
      "RECURRENCE-ID;TZID=Europe/Berlin:20260406T100000",
      "DTSTART;TZID=Europe/Berlin:20260407T140000",
      "DTEND;TZID=Europe/Berlin:20260407T150000",
      "END:VEVENT",
    );
    expect(iso(busySpansOf(text, FROM, TO))).toEqual([
      // 16.3. still CET (+1), 30.3. after the switch CEST (+2); 23.3. excluded; 6.4. moved to 7.4.
      ["2026-03-16T09:00:00.000Z", "2026-03-16T10:00:00.000Z"],
      ["2026-03-30T08:00:00.000Z", "2026-03-30T09:00:00.000Z"],
      ["2026-04-07T12:00:00.000Z", "2026-04-07T13:00:00.000Z"],
    ]);
  });

  it("a Windows zone defined by the feed's VTIMEZONE (Outlook) is applied", () => {
    const text = calendar(
      VTIMEZONE_BERLIN,
      "BEGIN:VEVENT",
      "UID:outlook@test",
      "DTSTAMP:20260101T000000Z",
      "DTSTART;TZID=W. Europe Standard Time:20260401T090000",
      "DTEND;TZID=W. Europe Standard Time:20260401T093000",
      "RRULE:FREQ=DAILY;COUNT=2",
      "END:VEVENT",
    );
    expect(iso(busySpansOf(text, FROM, TO))).toEqual([
      ["2026-04-01T07:00:00.000Z", "2026-04-01T07:30:00.000Z"],
      ["2026-04-02T07:00:00.000Z", "2026-04-02T07:30:00.000Z"],
    ]);
  });

  it("free (TRANSPARENT) and cancelled events block nothing; floating times and all-day events are Berlin time", () => {
    const text = calendar(
      "BEGIN:VEVENT",
      "UID:free@test",
      "DTSTAMP:20260101T000000Z",
      "DTSTART:20260402T080000Z",
      "DTEND:20260402T090000Z",
      "TRANSP:TRANSPARENT",
      "END:VEVENT",
      "BEGIN:VEVENT",
      "UID:cancelled@test",
      "DTSTAMP:20260101T000000Z",
      "DTSTART:20260402T100000Z",
      "DTEND:20260402T110000Z",
      "STATUS:CANCELLED",
      "END:VEVENT",
      "BEGIN:VEVENT",
      "UID:floating@test",
      "DTSTAMP:20260101T000000Z",
      "DTSTART:20260403T120000",
      "DTEND:20260403T123000",
      "END:VEVENT",
      "BEGIN:VEVENT",
      "UID:allday@test",
      "DTSTAMP:20260101T000000Z",
      "DTSTART;VALUE=DATE:20260410",
      "DTEND;VALUE=DATE:20260411",
      "END:VEVENT",
    );
    expect(iso(busySpansOf(text, FROM, TO))).toEqual([
      ["2026-04-03T10:00:00.000Z", "2026-04-03T10:30:00.000Z"],
      ["2026-04-09T22:00:00.000Z", "2026-04-10T22:00:00.000Z"],
    ]);
  });

  it("only events overlapping the window are kept; an endless daily rule stops at its end", () => {
    const text = calendar(
      "BEGIN:VEVENT",
      "UID:daily@test",
      "DTSTAMP:20100101T000000Z",
      "DTSTART:20100101T060000Z",
      "DTEND:20100101T063000Z",
      "RRULE:FREQ=DAILY",
      "END:VEVENT",
    );
    const spans = busySpansOf(
      text,
      new Date("2026-04-01T00:00:00Z"),
      new Date("2026-04-04T00:00:00Z"),
    );
    expect(iso(spans)).toEqual([
      ["2026-04-01T06:00:00.000Z", "2026-04-01T06:30:00.000Z"],
      ["2026-04-02T06:00:00.000Z", "2026-04-02T06:30:00.000Z"],
      ["2026-04-03T06:00:00.000Z", "2026-04-03T06:30:00.000Z"],
    ]);
  });

  it("a weekly series from 2015 (every 2nd week, Mo+Th, Berlin time) starts near the window and keeps its rhythm, DST and EXDATE", () => {
    const text = calendar(
      "BEGIN:VEVENT",
      "UID:jourfixe@test",
      "DTSTAMP:20150101T000000Z",
      // Monday 05.01.2015; every second week on Monday and Thursday.
      "DTSTART;TZID=Europe/Berlin:20150105T090000",
      "DTEND;TZID=Europe/Berlin:20150105T093000",
      "RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH",
      "EXDATE;TZID=Europe/Berlin:20260402T090000",
      "END:VEVENT",
    );
    // 05.01.2015 + 584 weeks = Monday 16.03.2026 (an even number: in rhythm), so the series meets
    // on 16.03., 19.03., 30.03. (CEST) and 02.04. (excluded) — never in the weeks between.
    expect(
      iso(busySpansOf(text, new Date("2026-03-15T00:00:00Z"), new Date("2026-04-05T00:00:00Z"))),
    ).toEqual([
      ["2026-03-16T08:00:00.000Z", "2026-03-16T08:30:00.000Z"],
      ["2026-03-19T08:00:00.000Z", "2026-03-19T08:30:00.000Z"],
      ["2026-03-30T07:00:00.000Z", "2026-03-30T07:30:00.000Z"],
    ]);
  });

  it("each recurring event has its own budget; one that runs out is counted, the others still block", () => {
    const text = calendar(
      "BEGIN:VEVENT",
      "UID:runaway@test",
      "DTSTAMP:20100101T000000Z",
      "DTSTART:20100101T000000Z",
      "DTEND:20100101T000030Z",
      "RRULE:FREQ=MINUTELY",
      "END:VEVENT",
      "BEGIN:VEVENT",
      "UID:lunch@test",
      "DTSTAMP:20150101T000000Z",
      "DTSTART:20150101T110000Z",
      "DTEND:20150101T120000Z",
      "RRULE:FREQ=DAILY",
      "END:VEVENT",
    );
    const answer = expandInThisProcess({
      ics: text,
      from: "2026-04-01T00:00:00Z",
      to: "2026-04-02T00:00:00Z",
    });
    if (!answer.ok) throw new Error(answer.message);
    expect(answer.cutOff).toBe(1);
    expect(answer.steps).toBeGreaterThanOrEqual(CALENDAR_LIMITS.stepsPerEvent);
    expect(iso(answer.busy)).toEqual([["2026-04-01T11:00:00.000Z", "2026-04-01T12:00:00.000Z"]]);
  });

  it("long-running daily series do not share one budget: a later series still blocks today", () => {
    // A normal team calendar: four daily series since 2015 (stand-up, focus time, …) and a daily
    // lunch break. Were their past occurrences counted against ONE budget for the whole feed, the
    // fifth series would be cut off years before today — silently, the feed reporting "ok".
    const daily = (uid: string, start: string, end: string) =>
      [
        "BEGIN:VEVENT",
        `UID:${uid}`,
        "DTSTAMP:20260101T000000Z",
        `DTSTART:${start}`,
        `DTEND:${end}`,
        "RRULE:FREQ=DAILY",
        "END:VEVENT",
      ].join("\r\n");
    const lunch = daily("lunch", "20150101T110000Z", "20150101T120000Z");
    const text = calendar(
      daily("standup", "20150101T070000Z", "20150101T071500Z"),
      daily("focus", "20150101T080000Z", "20150101T081500Z"),
      daily("mails", "20150101T140000Z", "20150101T141500Z"),
      daily("wrapup", "20150101T150000Z", "20150101T151500Z"),
      lunch,
    );
    const from = new Date("2026-12-01T00:00:00Z");
    const to = new Date("2026-12-08T00:00:00Z");
    const lunchOnDec2 = (ics: string) =>
      busySpansOf(ics, from, to).some(
        (s) =>
          s.start <= Date.parse("2026-12-02T11:00:00Z") &&
          s.end >= Date.parse("2026-12-02T12:00:00Z"),
      );
    // Control: the lunch series alone is expanded fine.
    expect(lunchOnDec2(calendar(lunch))).toBe(true);
    expect(lunchOnDec2(text)).toBe(true);
  });

  it("RDATE and EXDATE values are counted: more than datesPerEvent in one event cut it off, all of them spend the text's budget", () => {
    // Values one day apart from 2000 on (RDATE) and the same days at 09:00 excluded (EXDATE).
    const dates = (n: number, time: string) =>
      Array.from(
        { length: n },
        (_, i) =>
          new Date(Date.UTC(2000, 0, 1 + i)).toISOString().slice(0, 10).replace(/-/g, "") + time,
      );
    const event = (uid: string, rdates: string[], exdates: string[], start = "20260401T090000Z") =>
      [
        "BEGIN:VEVENT",
        `UID:${uid}`,
        "DTSTAMP:20260101T000000Z",
        `DTSTART:${start}`,
        "DURATION:PT1H",
        ...(rdates.length ? [`RDATE:${rdates.join(",")}`] : []),
        ...(exdates.length ? [`EXDATE:${exdates.join(",")}`] : []),
        "END:VEVENT",
      ].join("\r\n");
    const window = { from: "2026-04-01T00:00:00Z", to: "2026-04-03T00:00:00Z" };
    const cap = CALENDAR_LIMITS.datesPerEvent;

    // One event with too many values: cut off (its DTSTART still blocks), no more than the cap spent.
    const many = expandInThisProcess({
      ics: calendar(event("many", dates(cap + 1, "T120000Z"), [])),
      ...window,
    });
    if (!many.ok) throw new Error(many.message);
    expect(many.cutOff).toBe(1);
    expect(many.steps).toBeLessThanOrEqual(cap);
    expect(iso(many.busy)).toEqual([["2026-04-01T09:00:00.000Z", "2026-04-01T10:00:00.000Z"]]);

    // Within the cap: every value is a step; a value in the window blocks.
    const few = expandInThisProcess({
      ics: calendar(
        event("few", [...dates(400, "T120000Z"), "20260402T120000Z"], dates(400, "T090000Z")),
      ),
      ...window,
    });
    if (!few.ok) throw new Error(few.message);
    expect(few.cutOff).toBe(0);
    expect(few.steps).toBeGreaterThanOrEqual(801);
    expect(iso(few.busy)).toContainEqual(["2026-04-02T12:00:00.000Z", "2026-04-02T13:00:00.000Z"]);

    // Many events each under the cap: together they spend the text's budget, the rest is cut off.
    const events = Array.from({ length: 15 }, (_, i) =>
      event(`e${i}`, dates(450, "T120000Z"), dates(450, "T090000Z")),
    );
    const spread = expandInThisProcess({
      ics: calendar(...events),
      ...window,
      limits: { stepsPerCalendar: 10_000 },
    });
    if (!spread.ok) throw new Error(spread.message);
    expect(spread.steps).toBeLessThanOrEqual(10_000);
    expect(spread.steps).toBeGreaterThan(9_000);
    expect(spread.cutOff).toBe(4);
  });

  it("refuses a text that is not iCalendar", () => {
    expect(() => busySpansOf("<html>Anmeldung</html>", FROM, TO)).toThrow();
  });

  it("merges overlapping and touching spans", () => {
    expect(
      mergeSpans([
        { start: 5, end: 8 },
        { start: 1, end: 3 },
        { start: 3, end: 4 },
        { start: 6, end: 7 },
      ]),
    ).toEqual([
      { start: 1, end: 4 },
      { start: 5, end: 8 },
    ]);
  });
});
