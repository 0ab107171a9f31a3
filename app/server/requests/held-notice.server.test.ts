import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { jobRuns, mailOutbox, requests } from "~db/schema";
import { getConfiguration, saveConfiguration } from "../configuration/configuration.server";
import { db } from "../platform/db.server";
import { HELD_NOTICE_SUBJECT, sendHeldNoticeIfDue } from "./quarantine-jobs.server";

// The notice of newly held requests (ADR 327): at most one per 6 hours, a request held inside the
// window announced by the first tick after it, once; nothing while nothing waits; a request the
// visitor may still release by the script-free question left to the tick. Clock injected.

const HOUR = 3600_000;
const T0 = new Date("2026-12-07T08:00:00Z");
const at = (hours: number) => new Date(T0.getTime() + hours * HOUR);

const notices = () =>
  db().select().from(mailOutbox).where(eq(mailOutbox.kind, "quarantine-notice")).all();

function hold(name: string) {
  return db()
    .insert(requests)
    .values({
      name,
      email: `${name}@example.com`,
      phone: "+49 30 123456",
      companyDescription: "Eine Firma mit einer Idee",
      description: "",
      quarantinedAt: new Date(),
    })
    .returning()
    .get().id;
}
const release = (id: number) =>
  db().update(requests).set({ quarantinedAt: null }).where(eq(requests.id, id)).run();

beforeEach(() => {
  db().delete(mailOutbox).run();
  db().delete(jobRuns).where(eq(jobRuns.name, "quarantine-notice")).run();
  db().delete(requests).run();
  expect(
    saveConfiguration({
      ...getConfiguration(),
      emailNotifications: { enabled: true, adminEmails: [], externalEmails: ["team@example.com"] },
    }).ok,
  ).toBe(true);
});

describe("the held-request notice", () => {
  it("once at the first held request, then at most every 6 hours, owed ones by the tick", () => {
    hold("erste");
    expect(sendHeldNoticeIfDue({ held: true, now: at(0) })).toBe(true);
    const [first] = notices();
    expect(first?.subject).toBe(HELD_NOTICE_SUBJECT);
    expect(first?.to).toBe("team@example.com");
    // Content-free: a count and a link, no name or address.
    expect(first?.text).toContain("insgesamt wartet 1 Anfrage");
    expect(first?.text).not.toContain("erste");

    hold("zweite");
    expect(sendHeldNoticeIfDue({ held: true, now: at(1) })).toBe(false);
    expect(sendHeldNoticeIfDue({ now: at(5.9) })).toBe(false);
    expect(sendHeldNoticeIfDue({ now: at(6) })).toBe(true);
    expect(notices()).toHaveLength(2);
    expect(notices()[1]?.text).toContain("insgesamt warten 2 Anfragen");
    // Nothing new since: the ticks stay quiet, also long after.
    expect(sendHeldNoticeIfDue({ now: at(7) })).toBe(false);
    expect(sendHeldNoticeIfDue({ now: at(30) })).toBe(false);
    expect(notices()).toHaveLength(2);
  });

  it("nothing while nothing waits: an owed notice lapses when the requests were released", () => {
    const id = hold("kurz");
    expect(sendHeldNoticeIfDue({ held: true, now: at(0) })).toBe(true);
    const later = hold("spaeter");
    expect(sendHeldNoticeIfDue({ held: true, now: at(2) })).toBe(false);
    release(id);
    release(later);
    expect(sendHeldNoticeIfDue({ now: at(7) })).toBe(false);
    hold("wieder");
    expect(sendHeldNoticeIfDue({ now: at(8) })).toBe(false);
    expect(notices()).toHaveLength(1);
  });

  it("a request its visitor may still release is left to the tick", () => {
    const id = hold("frage");
    expect(sendHeldNoticeIfDue({ held: true, defer: true, now: at(0) })).toBe(false);
    expect(notices()).toHaveLength(0);
    // Answered within the hour: the tick finds nothing waiting.
    release(id);
    expect(sendHeldNoticeIfDue({ now: at(1) })).toBe(false);
    // Not answered: the tick announces it.
    hold("keine-antwort");
    expect(sendHeldNoticeIfDue({ held: true, defer: true, now: at(2) })).toBe(false);
    expect(sendHeldNoticeIfDue({ now: at(3) })).toBe(true);
    expect(notices()).toHaveLength(1);
  });

  it("without recipients nothing is sent; the notice is owed until someone is to be told", () => {
    saveConfiguration({
      ...getConfiguration(),
      emailNotifications: { enabled: false, adminEmails: [], externalEmails: [] },
    });
    hold("still");
    expect(sendHeldNoticeIfDue({ held: true, defer: true, now: at(0) })).toBe(false);
    expect(sendHeldNoticeIfDue({ now: at(1) })).toBe(false);
    saveConfiguration({
      ...getConfiguration(),
      emailNotifications: { enabled: true, adminEmails: [], externalEmails: ["team@example.com"] },
    });
    expect(sendHeldNoticeIfDue({ now: at(2) })).toBe(true);
  });
});
