import { subMonths } from "date-fns";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { saveConfiguration } from "~/server/configuration/configuration.server";
import { db } from "~/server/platform/db.server";
import { applyRetention, runRetentionIfDue } from "~/server/privacy/retention.server";
import { openStoredFile } from "~/server/uploads/store.server";
import { appointments, attachments, auditLog, jobRuns, mailOutbox, requests } from "~db/schema";
import { solvedAltcha } from "../altcha-solution";
import { multipart, pdfBytes, validFields } from "./landing-fixtures";
import { startTestServer, type TestServer } from "./server";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const NOW = new Date("2030-06-15T10:00:00Z");

async function requestTouchedAt(at: Date, fields: Record<string, string> = {}) {
  const res = await server.fetch("/api/requests", {
    method: "POST",
    body: multipart(validFields({ ...fields, altcha: await solvedAltcha(server.url) }), [
      { name: "plan.pdf", bytes: pdfBytes() },
    ]),
  });
  const { id } = (await res.json()) as { id: number };
  db().update(requests).set({ updatedAt: at, createdAt: at }).where(eq(requests.id, id)).run();
  const file = db().select().from(attachments).where(eq(attachments.requestId, id)).get();
  return { id, file: file?.filename ?? "" };
}
const row = (id: number) => db().select().from(requests).where(eq(requests.id, id)).get();

describe("retention (injected clock)", () => {
  it("deletes requests untouched for N months, keeps younger ones, purges old sent mails", async () => {
    saveConfiguration({
      retention: { requestMonths: 24, requestAction: "delete", outboxDays: 30 },
    });
    const old = await requestTouchedAt(subMonths(NOW, 25));
    const young = await requestTouchedAt(subMonths(NOW, 23));
    const day = 86_400_000;
    const [oldMail, youngMail] = [31, 29].map(
      (days) =>
        db()
          .insert(mailOutbox)
          .values({
            to: "a@example.com",
            subject: "x",
            text: "x",
            html: "x",
            status: "sent",
            sentAt: new Date(NOW.getTime() - days * day),
          })
          .returning()
          .get().id,
    );
    const result = await applyRetention(NOW);
    expect(result).toMatchObject({ requests: 1, mode: "delete", mails: 1 });
    expect(row(old.id)).toBeUndefined();
    expect(await openStoredFile(old.file)).toBeNull();
    expect(row(young.id)).toBeDefined();
    expect(await openStoredFile(young.file)).not.toBeNull();
    const mails = db()
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .all()
      .map((m) => m.id);
    expect(mails).not.toContain(oldMail);
    expect(mails).toContain(youngMail);
    const entry = db().select().from(auditLog).where(eq(auditLog.action, "retention")).all().at(-1);
    expect(entry).toMatchObject({ actorName: "System" });
    expect(JSON.parse(entry?.details ?? "{}")).toMatchObject({ requests: 1, mails: 1 });
  });

  it("anonymises instead when chosen: status, dates and affiliate code stay, nothing personal", async () => {
    saveConfiguration({ retention: { requestMonths: 12, requestAction: "anonymize" } });
    const old = await requestTouchedAt(subMonths(NOW, 13), { name: "Greta Gestern" });
    db()
      .update(requests)
      .set({ status: "Done", affiliateCode: "PARTNER10" })
      .where(eq(requests.id, old.id))
      .run();
    expect((await applyRetention(NOW)).mode).toBe("anonymize");
    const anonymised = row(old.id);
    expect(anonymised).toMatchObject({
      name: "Anonymisiert",
      email: "",
      phone: "",
      companyDescription: "",
      description: "",
      status: "Done",
      affiliateCode: "PARTNER10",
      audioKey: null,
    });
    expect(anonymised?.createdAt.toISOString()).toBe(subMonths(NOW, 13).toISOString());
    expect(db().select().from(attachments).where(eq(attachments.requestId, old.id)).all()).toEqual(
      [],
    );
    expect(await openStoredFile(old.file)).toBeNull();
    expect(
      db().$client.prepare("SELECT rowid FROM requests_fts WHERE requests_fts MATCH 'Greta'").all(),
    ).toEqual([]);
    // A second run leaves the anonymised row alone.
    expect((await applyRetention(NOW)).requests).toBe(0);
  });

  it("deletes appointments without a request once their start is older than the period", async () => {
    saveConfiguration({ retention: { requestMonths: 24, requestAction: "delete" } });
    const young = await requestTouchedAt(subMonths(NOW, 1));
    const gone = await requestTouchedAt(subMonths(NOW, 1));
    let n = 0;
    const appointment = (startTime: Date, requestId: number | null) =>
      db()
        .insert(appointments)
        .values({
          requestId,
          provider: "calcom",
          externalUid: `uid_retention_${++n}`,
          eventTypeKey: "demo",
          eventTypeName: "Demo",
          startTime,
          status: "ACCEPTED",
        })
        .returning()
        .get().id;
    const old = subMonths(NOW, 25);
    const orphanOld = appointment(old, null);
    const orphanRecent = appointment(subMonths(NOW, 23), null);
    const orphanFuture = appointment(new Date(NOW.getTime() + 7 * 86_400_000), null);
    const ofYoungRequest = appointment(old, young.id);
    const ofDeletedRequest = appointment(old, gone.id);
    // A request removed without the erasure path leaves its appointment behind (set null).
    db().delete(requests).where(eq(requests.id, gone.id)).run();
    const left = () =>
      db()
        .select({ id: appointments.id, requestId: appointments.requestId })
        .from(appointments)
        .all();
    expect(left().find((a) => a.id === ofDeletedRequest)?.requestId).toBeNull();

    const result = await applyRetention(NOW);
    expect(result.appointments).toBe(2);
    const ids = left().map((a) => a.id);
    expect(ids).not.toContain(orphanOld);
    expect(ids).not.toContain(ofDeletedRequest);
    expect(ids).toEqual(expect.arrayContaining([orphanRecent, orphanFuture, ofYoungRequest]));
    const entry = db().select().from(auditLog).where(eq(auditLog.action, "retention")).all().at(-1);
    expect(JSON.parse(entry?.details ?? "{}")).toMatchObject({ appointments: 2 });
  });

  it("the daily job runs when the last run (kept in job_runs) is more than 24 h ago", async () => {
    db().delete(jobRuns).run();
    expect(await runRetentionIfDue(NOW)).not.toBeNull();
    expect(await runRetentionIfDue(new Date(NOW.getTime() + 23 * 3600_000))).toBeNull();
    expect(db().select().from(jobRuns).get()?.lastRunAt.toISOString()).toBe(NOW.toISOString());
    expect(await runRetentionIfDue(new Date(NOW.getTime() + 25 * 3600_000))).not.toBeNull();
  });

  it("the settings form clamps the periods", async () => {
    const saved = saveConfiguration({
      retention: { requestMonths: 0, requestAction: "verbrennen", outboxDays: 9999, auditDays: 1 },
    });
    expect(saved.ok && saved.configuration.retention).toEqual({
      requestMonths: 1,
      requestAction: "delete",
      outboxDays: 365,
      auditDays: 30,
    });
  });
});
