// The CalDAV client (ADR 335) against a real Radicale started here: discovery, busy times of
// recurring events in two time zones (the own demo skipped), write/412/move/delete, the changes
// since a sync token and a full resync on an invalid one, login failures, the SSRF rules.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  busyTimes,
  changesSince,
  deleteEvent,
  discover,
  getEvent,
  putEvent,
} from "~/server/caldav/client.server";
import { davRequest, refusedDavUrl } from "~/server/caldav/http.server";
import { at, eventIcs, VTIMEZONE_BERLIN, VTIMEZONE_NEW_YORK } from "../caldav-fixtures";
import { type Radicale, startRadicale } from "../radicale";

process.env.WEBHOOK_ALLOW_LOCAL = "true";

let radicale: Radicale;
const lea = { username: "lea", password: "app-passwort-1" };
const soon = () => Date.now() + 5000;

beforeAll(async () => {
  radicale = await startRadicale({ lea: lea.password, ben: "ben-passwort" });
  await radicale.makeCalendar("lea", "arbeit", "Arbeit");
  await radicale.makeCalendar("lea", "demos", "Demos");
});
afterAll(async () => {
  await radicale?.close();
});

describe("discovery", () => {
  it("finds the principal, the home and the calendars from the bare server address", async () => {
    const found = await discover(radicale.url, lea, soon());
    expect(found.ok).toBe(true);
    if (!found.ok) return;
    expect(new URL(found.principalUrl).pathname).toBe("/lea/");
    expect(new URL(found.homeUrl).pathname).toBe("/lea/");
    const names = found.calendars.map((c) => c.name).sort();
    expect(names).toEqual(["Arbeit", "Demos"]);
    const arbeit = found.calendars.find((c) => c.name === "Arbeit");
    expect(arbeit).toMatchObject({
      url: radicale.calendarUrl("lea", "arbeit"),
      components: ["VEVENT"],
      syncCollection: true,
      freeBusyQuery: false,
    });
  });

  it("names a wrong app password (401), and refuses loopback without the opt-in", async () => {
    const wrong = await discover(radicale.url, { username: "lea", password: "falsch" }, soon());
    expect(wrong).toMatchObject({ ok: false, kind: "auth" });
    // Under the strict policy (no WEBHOOK_ALLOW_LOCAL, production): no http, no loopback, and
    // no http to a public host even under the local one.
    const refused = await davRequest(
      `${radicale.url}/lea/`,
      {
        method: "PROPFIND",
        auth: lea,
        deadline: soon(),
      },
      "strict",
    );
    expect(refused).toMatchObject({ ok: false, kind: "refused" });
    expect(refusedDavUrl("https://127.0.0.1/", "strict")).toMatch(/nicht öffentlich/);
    expect(refusedDavUrl("https://169.254.169.254/", "local")).toMatch(/nicht erlaubt/);
    expect(refusedDavUrl("http://cloud.example.com/", "local")).toMatch(/https/);
  });
});

describe("busy times (calendar-query, expanded here)", () => {
  beforeAll(async () => {
    await radicale.putObject(
      "lea",
      "arbeit",
      "standup.ics",
      eventIcs({
        uid: "standup",
        start: "TZID=Europe/Berlin:20290107T090000",
        end: "TZID=Europe/Berlin:20290107T093000",
        rrule: "FREQ=WEEKLY;BYDAY=MO",
        exdate: "TZID=Europe/Berlin:20300311T090000",
        timezones: [VTIMEZONE_BERLIN],
      }),
    );
    await radicale.putObject(
      "lea",
      "arbeit",
      "new-york.ics",
      eventIcs({
        uid: "new-york",
        start: "TZID=America/New_York:20290101T100000",
        end: "TZID=America/New_York:20290101T110000",
        rrule: "FREQ=WEEKLY;BYDAY=MO",
        timezones: [VTIMEZONE_NEW_YORK],
      }),
    );
    await radicale.putObject(
      "lea",
      "arbeit",
      "utc.ics",
      eventIcs({ uid: "utc", start: "20300304T120000Z", end: "20300304T130000Z" }),
    );
    await radicale.putObject(
      "lea",
      "arbeit",
      "frei.ics",
      eventIcs({
        uid: "frei",
        start: "20300304T140000Z",
        end: "20300304T143000Z",
        extra: "TRANSP:TRANSPARENT",
      }),
    );
    await radicale.putObject(
      "lea",
      "arbeit",
      "eigene-demo.ics",
      eventIcs({
        uid: "team-builtin_abc@anfrage-portal",
        start: "20300304T100000Z",
        end: "20300304T103000Z",
      }),
    );
  });

  const calendar = () => ({ url: radicale.calendarUrl("lea", "arbeit"), freeBusyQuery: false });
  const own = [
    {
      uid: "team-builtin_abc@anfrage-portal",
      start: at("2030-03-04T10:00:00Z"),
      end: at("2030-03-04T10:30:00Z"),
    },
  ];

  it("expands weekly series in their zones (Berlin, New York in EST), skips free and own events", async () => {
    const busy = await busyTimes(
      calendar(),
      new Date("2030-03-03T23:00:00Z"),
      new Date("2030-03-04T23:00:00Z"),
      lea,
      soon(),
      own,
    );
    expect(busy.ok).toBe(true);
    if (!busy.ok) return;
    expect(busy.spans).toEqual([
      { start: at("2030-03-04T08:00:00Z"), end: at("2030-03-04T08:30:00Z") },
      { start: at("2030-03-04T12:00:00Z"), end: at("2030-03-04T13:00:00Z") },
      { start: at("2030-03-04T15:00:00Z"), end: at("2030-03-04T16:00:00Z") },
    ]);
    expect(busy.warning).toBeNull();
  });

  it("a week later: New York on summer time, the stand-up's EXDATE", async () => {
    const busy = await busyTimes(
      calendar(),
      new Date("2030-03-10T23:00:00Z"),
      new Date("2030-03-11T23:00:00Z"),
      lea,
      soon(),
      own,
    );
    expect(busy.ok && busy.spans).toEqual([
      { start: at("2030-03-11T14:00:00Z"), end: at("2030-03-11T15:00:00Z") },
    ]);
  });
});

describe("writing, moving and deleting an event", () => {
  const href = () => `${radicale.calendarUrl("lea", "demos")}team-builtin_w1.ics`;
  const text = (start: string, end: string, sequence = 0) =>
    eventIcs({ uid: "team-builtin_w1@anfrage-portal", start, end, extra: `SEQUENCE:${sequence}` });

  it("creates with If-None-Match, refuses a second create (412), moves with If-Match, deletes", async () => {
    const created = await putEvent(
      href(),
      text("20300305T090000Z", "20300305T093000Z"),
      null,
      lea,
      soon(),
    );
    expect(created.ok).toBe(true);
    const etag = created.ok ? created.etag : null;
    expect(etag).toBeTruthy();
    const again = await putEvent(
      href(),
      text("20300305T090000Z", "20300305T093000Z"),
      null,
      lea,
      soon(),
    );
    expect(again).toMatchObject({ ok: false, kind: "precondition", status: 412 });
    const stale = await putEvent(
      href(),
      text("20300305T100000Z", "20300305T103000Z", 1),
      '"alt"',
      lea,
      soon(),
    );
    expect(stale).toMatchObject({ ok: false, kind: "precondition" });
    const moved = await putEvent(
      href(),
      text("20300305T100000Z", "20300305T103000Z", 1),
      etag,
      lea,
      soon(),
    );
    expect(moved.ok).toBe(true);
    const read = await getEvent(href(), lea, soon());
    expect(read.ok && !read.gone && read.text).toContain("SEQUENCE:1");
    expect(read.ok && !read.gone && read.text).toContain("DTSTART:20300305T100000Z");
    expect((await deleteEvent(href(), lea, soon())).ok).toBe(true);
    expect(await getEvent(href(), lea, soon())).toEqual({ ok: true, gone: true });
    // Deleting what is gone already counts as deleted.
    expect((await deleteEvent(href(), lea, soon())).ok).toBe(true);
  });
});

describe("changes since a sync token (RFC 6578)", () => {
  it("lists changed and removed members, and resyncs fully on an invalid token", async () => {
    await radicale.makeCalendar("ben", "demos");
    const ben = { username: "ben", password: "ben-passwort" };
    const calendar = { url: radicale.calendarUrl("ben", "demos"), syncCollection: true };
    await radicale.putObject(
      "ben",
      "demos",
      "a.ics",
      eventIcs({ uid: "a", start: "20300306T090000Z", end: "20300306T093000Z" }),
    );
    await radicale.putObject(
      "ben",
      "demos",
      "b.ics",
      eventIcs({ uid: "b", start: "20300306T100000Z", end: "20300306T103000Z" }),
    );
    const first = await changesSince(calendar, null, ben, soon());
    expect(first.ok).toBe(true);
    if (!first.ok) return;
    expect(first.complete).toBe(true);
    expect(first.changed.map((c) => c.href.split("/").pop()).sort()).toEqual(["a.ics", "b.ics"]);
    expect(first.token).toBeTruthy();

    await radicale.putObject(
      "ben",
      "demos",
      "a.ics",
      eventIcs({ uid: "a", start: "20300306T110000Z", end: "20300306T113000Z" }),
    );
    expect(await radicale.deleteObject("ben", "demos", "b.ics")).toBeLessThan(300);
    const next = await changesSince(calendar, first.token, ben, soon());
    expect(next.ok).toBe(true);
    if (!next.ok) return;
    expect(next.complete).toBe(false);
    expect(next.changed.map((c) => c.href.split("/").pop())).toEqual(["a.ics"]);
    expect(next.removed.map((h) => h.split("/").pop())).toEqual(["b.ics"]);

    const invalid = await changesSince(
      calendar,
      "http://radicale.org/ns/sync/unbekannt",
      ben,
      soon(),
    );
    expect(invalid.ok && invalid.complete).toBe(true);
    expect(invalid.ok && invalid.changed.map((c) => c.href.split("/").pop())).toEqual(["a.ics"]);

    const listing = await changesSince({ ...calendar, syncCollection: false }, null, ben, soon());
    expect(listing.ok && listing.token).toBeNull();
    expect(listing.ok && listing.changed.length).toBe(1);
  });
});
