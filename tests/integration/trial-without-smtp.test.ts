// "Testversion liefern" without SMTP (ADR 348): like a message, 409 with the reason, nothing is
// queued or recorded; the full-screen view says why instead of offering the form.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/server/platform/db.server";
import { mailOutbox, requests } from "~db/schema";
import { apiLogin } from "./auth-helpers";
import { startTestServer, type TestServer } from "./server";

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startTestServer({ SMTP_URL: undefined });
  token = await apiLogin(server, "admin", "admin-passwort");
});
afterAll(() => server.close());

describe("trial delivery without SMTP", () => {
  it("answers 409 with the reason and changes nothing; the page says why", async () => {
    const id = db()
      .insert(requests)
      .values({
        name: "Olga Ohnemail",
        email: "olga@example.com",
        phone: "+49 30 1234567",
        companyDescription: "Bäckerei mit zwei Filialen in Jena",
      })
      .returning({ id: requests.id })
      .get().id;
    const mails = db().select().from(mailOutbox).all().length;
    const res = await server.fetch(`/api/admin/requests/${id}/trial`, {
      method: "POST",
      token,
      json: { url: "https://demo.example.com/olga" },
    });
    expect(res.status).toBe(409);
    expect((await res.json()).error).toMatch(/^Ohne Mailserver \(SMTP_URL\) kann keine Nachricht/);
    const row = db().select().from(requests).where(eq(requests.id, id)).get();
    expect(row).toMatchObject({ trialDoneAt: null, trialUrl: null, stage: "new" });
    expect(db().select().from(mailOutbox).all().length).toBe(mails);

    const cookie = await server.adminCookie();
    const page = await (
      await server.fetch(`/admin/requests?requestId=${id}`, { headers: { cookie } })
    ).text();
    expect(page).toContain("Ohne Mailserver (SMTP_URL) kann keine Testversion an den Kunden gehen");
    expect(page).not.toContain(">Testversion liefern</button>");
  });
});
