import { describe, expect, it } from "vitest";
import { busyOfObjects, demoEventText, eventTimesOf, freeBusySpans } from "./calendar-data";
import { DavXmlError, parseMultistatus, reportsOf } from "./xml";

// The pure side of CalDAV (ADR 335): strings in, plain JSON out.
const at = (iso: string) => new Date(iso).getTime();
const vevent = (uid: string, start: string, end: string, extra = "") =>
  `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//T//DE\r\nBEGIN:VEVENT\r\nUID:${uid}\r\nDTSTAMP:20300101T000000Z\r\nDTSTART:${start}\r\nDTEND:${end}\r\n${extra}END:VEVENT\r\nEND:VCALENDAR\r\n`;

describe("busyOfObjects", () => {
  it("joins the objects, skips own UIDs, counts unreadable ones", async () => {
    const result = await busyOfObjects(
      [
        vevent("a", "20300304T090000Z", "20300304T100000Z"),
        vevent("own", "20300304T110000Z", "20300304T113000Z"),
        "kein Kalender",
        vevent("b", "20300304T093000Z", "20300304T103000Z"),
      ],
      at("2030-03-04T00:00:00Z"),
      at("2030-03-05T00:00:00Z"),
      ["own"],
    );
    expect(result.spans).toEqual([
      { start: at("2030-03-04T09:00:00Z"), end: at("2030-03-04T10:30:00Z") },
    ]);
    expect(result.invalid).toBe(1);
  });
  it("expands through the calendar worker: a rule that can never match blocks only its start", async () => {
    const never = vevent(
      "never",
      "20300304T090000Z",
      "20300304T100000Z",
      "RRULE:FREQ=YEARLY;BYMONTHDAY=30;BYMONTH=2;BYDAY=MO\r\n",
    );
    const result = await busyOfObjects(
      [never, never.replace("UID:never", "UID:never-2")],
      at("2030-03-01T00:00:00Z"),
      at("2031-03-01T00:00:00Z"),
    );
    expect(result.failed).toBeNull();
    expect(result.spans).toEqual([
      { start: at("2030-03-04T09:00:00Z"), end: at("2030-03-04T10:00:00Z") },
    ]);
  });
});

describe("freeBusySpans", () => {
  it("reads BUSY periods (start/end and start/duration), not FREE ones", async () => {
    const text = [
      "BEGIN:VCALENDAR",
      "VERSION:2.0",
      "PRODID:-//T//DE",
      "BEGIN:VFREEBUSY",
      "DTSTAMP:20300101T000000Z",
      "FREEBUSY;FBTYPE=BUSY:20300304T090000Z/20300304T100000Z,20300304T120000Z/PT30M",
      "FREEBUSY;FBTYPE=FREE:20300304T140000Z/20300304T150000Z",
      "FREEBUSY:20300304T160000Z/20300304T163000Z",
      "END:VFREEBUSY",
      "END:VCALENDAR",
      "",
    ].join("\r\n");
    expect(
      await freeBusySpans(text, at("2030-03-04T00:00:00Z"), at("2030-03-05T00:00:00Z")),
    ).toEqual([
      { start: at("2030-03-04T09:00:00Z"), end: at("2030-03-04T10:00:00Z") },
      { start: at("2030-03-04T12:00:00Z"), end: at("2030-03-04T12:30:00Z") },
      { start: at("2030-03-04T16:00:00Z"), end: at("2030-03-04T16:30:00Z") },
    ]);
  });
});

describe("the demo event", () => {
  it("has no METHOD, ORGANIZER or ATTENDEE; its times read back", async () => {
    const text = demoEventText({
      bookingUid: "builtin_x",
      sequence: 2,
      start: at("2030-03-04T09:00:00Z"),
      end: at("2030-03-04T09:30:00Z"),
      summary: "Demo #0042",
      description: "Anfrage im Anfrage-Portal: https://portal.example/admin/requests?requestId=42",
      videoUrl: "https://meet.example.com/raum",
      stamp: at("2030-03-01T00:00:00Z"),
    });
    expect(text).not.toMatch(/METHOD|ORGANIZER|ATTENDEE/);
    expect(text).toContain("UID:team-builtin_x@anfrage-portal");
    expect(text).toContain("LOCATION:https://meet.example.com/raum");
    expect(await eventTimesOf(text)).toEqual({
      uid: "team-builtin_x@anfrage-portal",
      start: at("2030-03-04T09:00:00Z"),
      end: at("2030-03-04T09:30:00Z"),
      sequence: 2,
    });
  });
});

describe("XML", () => {
  it("refuses a DOCTYPE (no entity expansion) and malformed text", () => {
    expect(() =>
      parseMultistatus(
        '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><d:multistatus xmlns:d="DAV:"/>',
      ),
    ).toThrow(DavXmlError);
    expect(() => parseMultistatus("<d:multistatus xmlns:d='DAV:'><d:response>")).toThrow(
      DavXmlError,
    );
    expect(() => parseMultistatus("<html>Wartung</html>")).toThrow(DavXmlError);
  });

  it("reads responses of any prefix, 404 members and the sync token", () => {
    const parsed = parseMultistatus(
      `<D:multistatus xmlns:D="DAV:"><D:response><D:href>/a%20b.ics</D:href><D:propstat><D:prop><D:getetag>"1"</D:getetag></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response><D:response><D:href>/weg.ics</D:href><D:status>HTTP/1.1 404 Not Found</D:status></D:response><D:sync-token>http://x/sync/2</D:sync-token></D:multistatus>`,
    );
    expect(parsed.syncToken).toBe("http://x/sync/2");
    expect(parsed.responses.map((r) => [r.href, r.status, r.props.getetag])).toEqual([
      ["/a%20b.ics", null, '"1"'],
      ["/weg.ics", 404, undefined],
    ]);
    expect(
      reportsOf({
        "supported-report": [
          { report: [{ "free-busy-query": "" }] },
          { report: [{ "sync-collection": "" }] },
        ],
      }),
    ).toEqual(["free-busy-query", "sync-collection"]);
  });
});
