// No lead out of sight (ADR 327) over HTTP: held requests are counted on their own in
// `/api/admin/stats` and on the dashboard (card, one summary row, the "Anfragen" tab's badge);
// parallel held submissions send one notice, and a restart within the six hours sends none; a
// release without SMTP says the mails wait in the outbox.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getToast } from "~/server/http/flash.server";
import { db } from "~/server/platform/db.server";
import { mailOutbox, requests } from "~db/schema";
import { multipart, validFields } from "./landing-fixtures";
import { startTestServer, type TestServer } from "./server";

let server: TestServer;
let token: string;

async function start() {
  server = await startTestServer({ SMTP_URL: undefined, SUBMISSION_RATE_LIMIT: "1000/1h" });
  token = await server.adminToken();
}
beforeAll(async () => {
  await start();
  const res = await server.fetch("/api/configuration", {
    method: "PATCH",
    token,
    json: { emailNotifications: { enabled: true, externalEmails: ["team@example.com"] } },
  });
  expect(res.status).toBe(200);
});
afterAll(() => server.close());

const notices = () =>
  db().select().from(mailOutbox).where(eq(mailOutbox.kind, "quarantine-notice")).all();
const held = () =>
  db()
    .select({ id: requests.id, at: requests.quarantinedAt, name: requests.name })
    .from(requests)
    .all()
    .filter((r) => r.at);

/** A submission without proof of work through the API: held, never asked (ADR 326). */
const submitHeld = (name: string) =>
  server.fetch("/api/requests", { method: "POST", body: multipart(validFields({ name })) });

describe("held requests in sight", () => {
  it("parallel held submissions send one notice; a restart within the six hours sends none", async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => submitHeld(`Welle ${i}`)),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(201));
    expect(held()).toHaveLength(8);
    expect(notices()).toHaveLength(1);
    expect(notices()[0]?.text).not.toMatch(/Welle/);

    await server.close();
    await start();
    expect((await submitHeld("Nach dem Neustart")).status).toBe(201);
    expect(notices()).toHaveLength(1);
  });

  it("the stats, the dashboard's card and summary row, and the tab's badge count them", async () => {
    const n = held().length;
    const { stats } = (await (await server.fetch("/api/admin/stats", { token })).json()) as {
      stats: { quarantinedRequests: number; totalRequests: number };
    };
    expect(stats.quarantinedRequests).toBe(n);
    expect(stats.totalRequests).toBe(0);

    const cookie = await server.adminCookie();
    const html = await (await server.fetch("/admin/dashboard", { headers: { cookie } })).text();
    expect(html).toMatch(/href="\/admin\/requests\?tab=quarantine"[^>]*>(<[^>]+>)*Zur Prüfung/);
    expect(html.match(/data-testid="held-summary-row"/g)).toHaveLength(1);
    expect(html).toContain(`>${n} zur Prüfung<`);
    expect(html).not.toContain("Welle 0");
    expect(html).toMatch(new RegExp(`data-testid="held-requests-badge"[^>]*>${n}<`));
    expect(html).toContain(`${n} Anfragen warten auf Prüfung`);
  });

  it("a release without SMTP says the notification and the receipt wait in the outbox", async () => {
    const id = held()[0]?.id as number;
    const cookie = await server.adminCookie();
    const res = await server.fetch("/admin/requests?tab=quarantine", {
      method: "POST",
      headers: {
        cookie,
        origin: server.url,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ intent: "release", id: String(id) }).toString(),
    });
    expect(res.status).toBe(302);
    const flash = (res.headers.get("set-cookie") ?? "").match(/__flash=[^;]*/)?.[0] ?? "";
    const { toast } = await getToast(new Request("http://x/", { headers: { cookie: flash } }));
    expect(toast?.message).toBe(
      "Anfrage freigegeben. Webhooks werden jetzt gesendet. Benachrichtigung und Eingangsbestätigung liegen im Postausgang, bis ein Mailserver (SMTP_URL) eingerichtet ist – die Kundin oder der Kunde erfährt bis dahin nichts.",
    );
  });
});
