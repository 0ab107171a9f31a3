// The morning digest (ADR 352), driven by the job's own tick at fake moments: Monday to Friday
// from 07:30 Europe/Berlin, one mail per active admin who wants it and is not absent, with only
// their own follow-ups (overdue and today, with "Antwort erhalten"), the new leads assigned to them
// and the count of requests held for checking (no content); nothing due, no mail; a second tick
// the same day sends nothing; signed like every mail. (A restart and a crash halfway:
// morning-digest-restart.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSmtpInbox } from "../smtp-inbox";
import { insertAdmin, testDb } from "./auth-helpers";
import { startTestServer, type TestServer } from "./server";

let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpInbox>>;
const a: Record<string, { id: number; email: string }> = {};

function sql<T>(query: string, ...params: unknown[]): T[] {
  const db = testDb();
  try {
    const statement = db.prepare(query);
    return (statement.reader ? statement.all(...params) : [statement.run(...params)]) as T[];
  } finally {
    db.close();
  }
}
/** A stored request; `columns` sets more of its columns (status, archived, quarantined_at). */
function request(name: string, columns: Record<string, string | number> = {}) {
  const names = [
    "name",
    "email",
    "phone",
    "company_description",
    "description",
    ...Object.keys(columns),
  ];
  const values = [
    name,
    `${name.toLowerCase().replace(/\W+/g, ".")}@example.com`,
    "+49 30 1",
    "Firma",
    "App",
    ...Object.values(columns),
  ];
  return Number(
    sql<{ id: number }>(
      `INSERT INTO requests (${names.join(", ")}) VALUES (${names.map(() => "?").join(", ")}) RETURNING id`,
      ...values,
    )[0]?.id,
  );
}
const followUp = (requestId: number, adminId: number, due: string, text = "", answer?: string) =>
  sql(
    "INSERT INTO follow_ups (request_id, admin_id, due_day, text, answer) VALUES (?, ?, ?, ?, ?)",
    requestId,
    adminId,
    due,
    text,
    answer ?? null,
  );
const assign = (requestId: number, adminId: number) =>
  sql("INSERT INTO request_assignees (request_id, admin_id) VALUES (?, ?)", requestId, adminId);
const digests = () =>
  sql<{ to: string; subject: string; text: string; html: string }>(
    "SELECT \"to\", subject, text, html FROM mail_outbox WHERE kind = 'morning-digest' ORDER BY id",
  );
const num = (id: number) => `#${String(id).padStart(4, "0")}`;

// Friday 26 February 2027, Saturday 27, Monday 1 March (CET: Berlin = UTC + 1).
const FRIDAY = new Date("2027-02-26T06:31:00Z");
const SATURDAY = new Date("2027-02-27T09:00:00Z");
const MONDAY_EARLY = new Date("2027-03-01T06:29:00Z");
const MONDAY = new Date("2027-03-01T06:31:00Z");

beforeAll(async () => {
  smtp = await startSmtpInbox();
  server = await startTestServer({ SMTP_URL: smtp.url, APP_URL: "https://portal.example.com" });
  for (const name of ["anna", "ben", "carla", "dora", "frida"])
    a[name] = await insertAdmin(`${name}.digest`, { email: `${name}.digest@example.com` });
  a.erik = await insertAdmin("erik.digest", { active: false, email: "erik.digest@example.com" });
  sql("UPDATE admins SET morning_digest = 0 WHERE id = ?", a.carla.id);
  sql(
    "UPDATE admins SET absent_from = '2027-02-26', absent_until = '2027-03-02' WHERE id = ?",
    a.dora.id,
  );
});
afterAll(async () => {
  await server.close();
  await smtp.close();
});

describe("the morning digest", () => {
  let r: Record<string, number>;

  it("Friday 07:31: each admin with something due gets their own list; nothing due, no mail", () => {
    r = {
      overdue: request("Olga Überfällig"),
      today: request("Theo Heute"),
      week: request("Wanda Woche"),
      newLead: request("Nina Neu"),
      busy: request("Ida InArbeit", { status: "In Progress" }),
      archived: request("Arno Archiv", { archived: 1 }),
      carla: request("Carlas Kunde"),
      dora: request("Doras Kunde"),
      erik: request("Eriks Kunde"),
    };
    followUp(r.overdue, a.anna.id, "2027-02-25", "Angebot schicken");
    followUp(r.today, a.anna.id, "2027-03-01", "Angebot nachfassen", "reply");
    followUp(r.week, a.anna.id, "2027-03-04");
    for (const id of [r.newLead, r.busy, r.archived]) assign(id, a.ben.id);
    followUp(r.carla, a.carla.id, "2027-02-20");
    followUp(r.dora, a.dora.id, "2027-02-20");
    followUp(r.erik, a.erik.id, "2027-02-20");

    expect(server.testHooks.runMorningDigest(FRIDAY)).toEqual({ queued: 2, empty: 2, failed: 0 });
    expect(
      digests()
        .map((d) => d.to)
        .sort(),
    ).toEqual([a.anna.email, a.ben.email]);
    const outcome = sql<{ admin_id: number; outcome: string }>(
      "SELECT admin_id, outcome FROM digest_runs WHERE day = '2027-02-26' ORDER BY admin_id",
    );
    expect(outcome.filter((o) => o.outcome === "empty").map((o) => o.admin_id)).toContain(
      a.frida.id,
    );
    const anna = digests().find((d) => d.to === a.anna.email);
    expect(anna?.subject).toBe("Ihre Übersicht für heute: 1 Wiedervorlage");
    expect(anna?.text).toContain(
      `${num(r.overdue)} Olga Überfällig – überfällig seit 25.02.2027 · Angebot schicken`,
    );
    expect(anna?.text).toContain(
      `https://portal.example.com/admin/requests?requestId=${r.overdue}`,
    );
    expect(anna?.text).not.toContain("Theo Heute");
    const ben = digests().find((d) => d.to === a.ben.email);
    expect(ben?.subject).toBe("Ihre Übersicht für heute: 1 neue Anfrage");
    expect(ben?.text).toContain(`${num(r.newLead)} Nina Neu`);
    expect(ben?.text).not.toContain("Ida InArbeit");
    expect(ben?.text).not.toContain("Arno Archiv");
    expect(ben?.text).not.toContain("Olga");
  });

  it("not on Saturday, not before 07:30; on Monday once per admin with today's list", () => {
    expect(server.testHooks.runMorningDigest(SATURDAY)).toEqual({ queued: 0, empty: 0, failed: 0 });
    expect(server.testHooks.runMorningDigest(MONDAY_EARLY)).toEqual({
      queued: 0,
      empty: 0,
      failed: 0,
    });
    const held = request("Sepp Spam", { quarantined_at: Date.now() });
    const before = digests().length;
    const run = server.testHooks.runMorningDigest(MONDAY);
    // Everyone active with the digest on and not absent: anna, ben, frida and the first admin
    // (the held request is everyone's); not carla (off), dora (absent), erik (inactive).
    expect(run).toEqual({ queued: 4, empty: 0, failed: 0 });
    const monday = digests().slice(before);
    expect(monday.map((d) => d.to)).not.toContain(a.carla.email);
    expect(monday.map((d) => d.to)).not.toContain(a.dora.email);
    expect(monday.map((d) => d.to)).not.toContain(a.erik.email);
    const anna = monday.find((d) => d.to === a.anna.email);
    expect(anna?.subject).toBe("Ihre Übersicht für heute: 2 Wiedervorlagen, 1 Anfrage zur Prüfung");
    expect(anna?.text).toContain(
      `${num(r.today)} Theo Heute – heute · Angebot nachfassen (Antwort erhalten)`,
    );
    expect(anna?.text).not.toContain("Wanda Woche");
    for (const mail of monday) {
      expect(mail.text).toContain("1 Anfrage wartet auf Prüfung");
      expect(mail.text).toContain("https://portal.example.com/admin/requests?tab=quarantine");
      expect(mail.text).not.toContain("Sepp Spam");
      expect(mail.text).not.toContain("sepp.spam@example.com");
    }
    expect(monday.find((d) => d.to === a.frida.email)?.subject).toBe(
      "Ihre Übersicht für heute: 1 Anfrage zur Prüfung",
    );
    // Escaped in the HTML part like every mail.
    expect(anna?.html).toContain("Theo Heute");
    expect(anna?.html).not.toContain("<script");
    // A second tick that morning (or later that day) sends nothing more.
    expect(server.testHooks.runMorningDigest(new Date("2027-03-01T15:00:00Z"))).toEqual({
      queued: 0,
      empty: 0,
      failed: 0,
    });
    expect(digests()).toHaveLength(before + 4);
    sql("DELETE FROM requests WHERE id = ?", held);
  });

  it("lists the promises of the admin's requests due today or overdue, nobody else's (ADR 346)", () => {
    // Tuesday 2 March 2027, 07:31 Berlin.
    const tuesday = new Date("2027-03-02T06:31:00Z");
    const at = (iso: string) => new Date(iso).getTime();
    const late = request("Lena Zusage", { contact_due_at: at("2027-03-01T12:00:00Z") });
    const both = request("Tom Testversion", {
      contact_due_at: at("2027-02-26T12:00:00Z"),
      contact_done_at: at("2027-02-26T09:00:00Z"),
      trial_due_at: at("2027-03-02T15:00:00Z"),
    });
    const later = request("Vera Später", { trial_due_at: at("2027-03-05T15:00:00Z") });
    const closed = request("Doris Erledigt", {
      status: "Done",
      contact_due_at: at("2027-03-01T12:00:00Z"),
    });
    const others = request("Olaf Anderer", { contact_due_at: at("2027-03-01T12:00:00Z") });
    for (const id of [late, both, later, closed]) assign(id, a.frida.id);
    assign(others, a.ben.id);
    const before = digests().length;
    server.testHooks.runMorningDigest(tuesday);
    const frida = digests()
      .slice(before)
      .find((d) => d.to === a.frida.email);
    // Her requests are new leads too ("Neue Anfragen für Sie").
    expect(frida?.subject).toMatch(/^Ihre Übersicht für heute: 2 Zusagen, /);
    // The section "Ihre Zusagen" (the new leads below list her requests too).
    const section = frida?.text.split("\n\n").find((p) => p.startsWith("Ihre Zusagen:")) ?? "";
    expect(section).toContain(`${num(late)} Lena Zusage – Erstkontakt überfällig seit 1 Tag`);
    expect(section).toContain(`${num(both)} Tom Testversion – Testversion fällig heute`);
    expect(section).not.toContain("Vera Später");
    expect(section).not.toContain("Doris Erledigt");
    expect(frida?.text).not.toContain("Olaf Anderer");
    // The earliest due first.
    expect(section.indexOf("Lena Zusage")).toBeLessThan(section.indexOf("Tom Testversion"));
  });

  it("goes out through SMTP signed like every mail, with the way to turn it off", async () => {
    await server.drainOutbox();
    const mail = await smtp.waitFor(a.anna.email, /Ihre Übersicht für heute: 2 Wiedervorlagen/);
    expect(mail.text).toContain("Guten Morgen, anna.digest,");
    expect(mail.text).toContain("Meine Aufgaben öffnen: https://portal.example.com/admin/aufgaben");
    expect(mail.text).toContain("https://portal.example.com/admin/account#morgenuebersicht");
    // The admins' sign-off of the mail signature (ADR 325).
    expect(mail.text).toContain("Mit freundlichen Grüßen");
  });
});
