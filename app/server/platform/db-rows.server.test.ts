import { desc, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { mailOutbox, requests } from "~db/schema";
import { db } from "./db.server";
import { preparedRows } from "./db-rows.server";

// The compiled row reader (ADR 298) must decode exactly as drizzle's own select does.
beforeAll(() => {
  db()
    .insert(requests)
    .values([
      { name: "Leer", email: "", phone: "", companyDescription: "" },
      {
        name: "Jörg „Müller“ 🎉",
        email: "j@example.com",
        phone: "+49 30 1",
        companyDescription: "Bäckerei\nseit 1920",
        summary: "Kurz",
        status: "Done",
        archived: true,
        audioKey: "a.webm",
        preparationData: { ziel: "Ein Ziel", budget: "10 000 €" },
        quarantinedAt: new Date(Date.UTC(2026, 10, 2, 3, 4, 5, 6)),
        voiceTranscriptStatus: "failed",
        firstStatusChangeAt: new Date(0),
        createdAt: new Date(Date.UTC(2026, 0, 1)),
      },
    ])
    .run();
  db().insert(mailOutbox).values({ to: "x@example.com", subject: "s", text: "t", html: "h" }).run();
});

describe("preparedRows", () => {
  it("decodes whole rows as drizzle does (dates, booleans, JSON, nulls), with placeholders", () => {
    const byStatus = preparedRows(requests, () =>
      db()
        .select()
        .from(requests)
        .where(eq(requests.status, sql.placeholder("status")))
        .orderBy(desc(requests.id)),
    );
    for (const status of ["New", "Done"] as const) {
      const expected = db()
        .select()
        .from(requests)
        .where(eq(requests.status, status))
        .orderBy(desc(requests.id))
        .all();
      expect(expected.length).toBe(1);
      expect(byStatus({ status })).toStrictEqual(expected);
    }
    const [row] = byStatus({ status: "Done" });
    expect(row.createdAt).toBeInstanceOf(Date);
    expect(row.archived).toBe(true);
    expect(row.preparationData).toEqual({ ziel: "Ein Ziel", budget: "10 000 €" });
    expect(byStatus({ status: "In Progress" })).toEqual([]);
    // Another table's reader.
    const mails = preparedRows(mailOutbox, () => db().select().from(mailOutbox));
    expect(mails()).toStrictEqual(db().select().from(mailOutbox).all());
  });

  it("refuses a query that does not select the table's whole row in order", () => {
    const partial = preparedRows(requests, () =>
      db().select({ id: requests.id, name: requests.name }).from(requests),
    );
    expect(() => partial()).toThrow(/not the whole row/);
    const other = preparedRows(requests, () => db().select().from(mailOutbox));
    expect(() => other()).toThrow(/not the whole row/);
  });
});
