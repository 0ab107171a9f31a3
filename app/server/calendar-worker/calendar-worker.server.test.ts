import { describe, expect, it } from "vitest";
import { testHooks } from "../platform/test-hooks.server";
import { expandCalendar, LOOKUP_WAITING_JOBS, MAX_WAITING_JOBS } from "./calendar-worker.server";
import { CALENDAR_LIMITS } from "./job";

const calendar = (...events: string[]) =>
  ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//DE", ...events, "END:VCALENDAR"].join("\r\n");
const event = (uid: string, rule?: string, start = "20260105T090000Z") =>
  [
    "BEGIN:VEVENT",
    `UID:${uid}`,
    "DTSTAMP:20260101T000000Z",
    `DTSTART:${start}`,
    "DURATION:PT1H",
    ...(rule ? [`RRULE:${rule}`] : []),
    "END:VEVENT",
  ].join("\r\n");
const window = { from: "2026-12-01T00:00:00Z", to: "2026-12-15T00:00:00Z" };
/** A large valid feed: `n` single events with some text each. */
const large = (n: number) =>
  calendar(
    ...Array.from({ length: n }, (_, i) =>
      [
        "BEGIN:VEVENT",
        `UID:${i}@test`,
        "DTSTAMP:20260101T000000Z",
        "DTSTART:20261201T090000Z",
        "DTEND:20261201T100000Z",
        `SUMMARY:${"Besprechung ".repeat(8)}${i}`,
        `DESCRIPTION:${"Tagesordnung und Notizen ".repeat(8)}`,
        "END:VEVENT",
      ].join("\r\n"),
    ),
  );

// The calendar child (ADR 320), started from its source as in development.
describe("the calendar worker (a child process)", () => {
  it("expands a feed: busy times in the window, an impossible rule refused, a runaway series cut off", async () => {
    const answer = await expandCalendar({
      ics: calendar(
        event("weekly", "FREQ=WEEKLY;BYDAY=MO"),
        event("never", "FREQ=YEARLY;BYMONTHDAY=30;BYMONTH=2;BYDAY=MO"),
        event("runaway", "FREQ=SECONDLY;BYMONTH=1"),
      ),
      ...window,
    });
    expect(answer).toEqual({
      ok: true,
      busy: [
        { start: Date.parse("2026-12-07T09:00:00Z"), end: Date.parse("2026-12-07T10:00:00Z") },
        { start: Date.parse("2026-12-14T09:00:00Z"), end: Date.parse("2026-12-14T10:00:00Z") },
      ],
      events: 3,
      cutOff: 1,
      refused: 1,
      steps: expect.any(Number),
    });
    if (answer.ok) expect(answer.steps).toBeGreaterThanOrEqual(CALENDAR_LIMITS.stepsPerEvent);
  });

  it("runs one job at a time; more than MAX_WAITING_JOBS waiting are answered busy", async () => {
    const jobs = Array.from({ length: 3 }, () =>
      expandCalendar({ ics: calendar(event("a", "FREQ=DAILY")), ...window }),
    );
    await Promise.resolve();
    expect(testHooks.calendarWorker()).toMatchObject({ running: true, waiting: 2 });
    const answers = await Promise.all(jobs);
    expect(answers.every((a) => a.ok)).toBe(true);
    expect(testHooks.calendarWorker()).toMatchObject({ running: false, waiting: 0 });

    const flood = Array.from({ length: MAX_WAITING_JOBS + 2 }, () =>
      expandCalendar({ ics: calendar(event("b")), ...window }),
    );
    const results = await Promise.all(flood);
    // Ten wait (the first of them starts next), the last two are turned away at once.
    expect(results.filter((r) => !r.ok && r.reason === "busy")).toHaveLength(2);
  }, 120_000);

  it("a look-up whose caller gave up is not run: it ends at its deadline, not when the child is free", async () => {
    const before = testHooks.calendarWorker();
    const slow = expandCalendar({ ics: large(6000), ...window });
    let slowDone = false;
    void slow.then(() => {
      slowDone = true;
    });
    const asked = performance.now();
    const late = await expandCalendar(
      { ics: calendar(event("late")), ...window },
      { priority: "lookup", deadline: Date.now() + 150 },
    );
    expect(late).toEqual({
      ok: false,
      reason: "deadline",
      message: "Der Kalender-Dienst war nicht rechtzeitig frei.",
    });
    expect(performance.now() - asked).toBeLessThan(1000);
    expect(slowDone).toBe(false);
    expect((await slow).ok).toBe(true);
    const after = testHooks.calendarWorker();
    // Only the slow job ran; the look-up was dropped from the queue.
    expect(after.runs).toBe(before.runs + 1);
    expect(after.expired).toBe(before.expired + 1);
    // A deadline already past is not even queued.
    expect(
      await expandCalendar(
        { ics: calendar(event("past")), ...window },
        { priority: "lookup", deadline: Date.now() - 1 },
      ),
    ).toMatchObject({ ok: false, reason: "deadline" });
    expect(testHooks.calendarWorker().runs).toBe(after.runs);
  }, 60_000);

  it("a running look-up is killed at its caller's deadline", async () => {
    const killed = testHooks.calendarWorker().killed;
    const asked = performance.now();
    const answer = await expandCalendar(
      { ics: large(6000), ...window },
      { priority: "lookup", deadline: Date.now() + 300 },
    );
    expect(answer).toMatchObject({ ok: false, reason: "deadline" });
    expect(performance.now() - asked).toBeLessThan(1000);
    // The next job runs once the killed child is gone.
    expect((await expandCalendar({ ics: calendar(event("after")), ...window })).ok).toBe(true);
    expect(testHooks.calendarWorker().killed).toBe(killed + 1);
  }, 60_000);

  it("booking checks, then sync and feed jobs go before waiting look-ups; look-ups wait in their own share; identical look-ups share one job", async () => {
    const before = testHooks.calendarWorker();
    const order: string[] = [];
    const track = (label: string, answer: ReturnType<typeof expandCalendar>) =>
      answer.then((a) => {
        order.push(label);
        return a;
      });
    const blocker = track("blocker", expandCalendar({ ics: large(3000), ...window }));
    const far = { deadline: Date.now() + 60_000 };
    const lookups = Array.from({ length: LOOKUP_WAITING_JOBS }, (_, i) =>
      track(
        `lookup-${i}`,
        expandCalendar(
          { ics: calendar(event(`l${i}`)), ...window },
          { priority: "lookup", ...far },
        ),
      ),
    );
    // The same look-up again shares the job already waiting; one more is turned away at once.
    const twin = expandCalendar(
      { ics: calendar(event("l0")), ...window },
      { priority: "lookup", ...far },
    );
    const extra = await expandCalendar(
      { ics: calendar(event("extra")), ...window },
      { priority: "lookup", ...far },
    );
    expect(extra).toMatchObject({ ok: false, reason: "busy" });
    const sync = track("sync", expandCalendar({ ics: calendar(event("s")), ...window }));
    const booking = track(
      "booking",
      expandCalendar({ ics: calendar(event("b")), ...window }, { priority: "booking", ...far }),
    );
    const answers = await Promise.all([blocker, ...lookups, twin, sync, booking]);
    expect(answers.every((a) => a.ok)).toBe(true);
    expect(await twin).toEqual(await lookups[0]);
    expect(order.slice(0, 3)).toEqual(["blocker", "booking", "sync"]);
    const after = testHooks.calendarWorker();
    // blocker, the look-ups (the twin shared one), sync, booking.
    expect(after.runs - before.runs).toBe(1 + LOOKUP_WAITING_JOBS + 2);
    expect(after.coalesced - before.coalesced).toBe(1);
    expect(after.refused - before.refused).toBe(1);
  }, 120_000);

  it("kills a child past its time limit", async () => {
    const killed = testHooks.calendarWorker().killed;
    const answer = await expandCalendar({
      ics: large(6000),
      ...window,
      limits: { timeLimitMs: 50 },
    });
    expect(answer).toEqual({
      ok: false,
      reason: "time-limit",
      message: "Kalender zu aufwendig: nach 0,05 s abgebrochen",
    });
    expect(testHooks.calendarWorker()).toMatchObject({ running: false, killed: killed + 1 });
  });

  it("a child past its heap ends with the memory limit, the server goes on", async () => {
    const answer = await expandCalendar({ ics: large(6000), ...window, limits: { heapMb: 8 } });
    expect(answer).toEqual({
      ok: false,
      reason: "memory-limit",
      message: "Kalender zu groß zum Einlesen (mehr als 8 MB)",
    });
    // The next job runs as usual.
    expect((await expandCalendar({ ics: calendar(event("c")), ...window })).ok).toBe(true);
  }, 60_000);

  it("counts the events before parsing and refuses a text with too many; a job may lower, never raise, a limit", async () => {
    expect(
      await expandCalendar({
        ics: calendar(event("1"), event("2"), event("3")),
        ...window,
        limits: { maxEvents: 2 },
      }),
    ).toEqual({
      ok: false,
      reason: "too-many-events",
      message: "Zu viele Termine im Kalender (mehr als 2)",
    });
    const raised = await expandCalendar({
      ics: calendar(event("runaway", "FREQ=SECONDLY;BYMONTH=1")),
      ...window,
      limits: { stepsPerEvent: 10 * CALENDAR_LIMITS.stepsPerEvent },
    });
    expect(raised).toMatchObject({ ok: true, cutOff: 1 });
    if (raised.ok) expect(raised.steps).toBeLessThanOrEqual(CALENDAR_LIMITS.stepsPerEvent + 1);
    // Two children at nice 10: on a busy machine they wait for the CPU like the others above.
  }, 60_000);

  it("answers a text that is not iCalendar as invalid", async () => {
    expect(await expandCalendar({ ics: "<html>Anmeldung</html>", ...window })).toMatchObject({
      ok: false,
      reason: "invalid",
    });
  });

  it("with includeFree also counts free and cancelled events (a CalDAV time-range query)", async () => {
    const free = event("free").replace("END:VEVENT", "TRANSP:TRANSPARENT\r\nEND:VEVENT");
    const ics = calendar(free.replace("20260105T090000Z", "20261202T090000Z"));
    expect(await expandCalendar({ ics, ...window })).toMatchObject({ ok: true, busy: [] });
    expect(await expandCalendar({ ics, ...window, includeFree: true })).toMatchObject({
      ok: true,
      busy: [
        { start: Date.parse("2026-12-02T09:00:00Z"), end: Date.parse("2026-12-02T10:00:00Z") },
      ],
    });
  });
});
