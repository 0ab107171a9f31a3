import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_CONFIGURATION } from "~/lib/configuration";
import { saveConfiguration } from "~/server/configuration/configuration.server";
import { db } from "~/server/platform/db.server";
import { admins } from "~db/schema";
import { solvedAltcha } from "../altcha-solution";
import { startSmtpInbox } from "../smtp-inbox";
import { multipart, validFields } from "./landing-fixtures";
import { startTestServer, type TestServer } from "./server";

let inbox: Awaited<ReturnType<typeof startSmtpInbox>>;
let server: TestServer;

beforeAll(async () => {
  inbox = await startSmtpInbox();
  server = await startTestServer({
    SMTP_URL: inbox.url,
    APP_URL: "https://portal.example.com",
    SUBMISSION_RATE_LIMIT: "100/1h",
  });
});
afterAll(async () => {
  await server.close();
  await inbox.close();
});

const waitForMail = (to: string) => inbox.waitFor(to, /./, 10_000);

describe("new-request notification", () => {
  it("mails the selected admins and external addresses with summary and link", async () => {
    const admin = db().select().from(admins).get();
    expect(admin).toBeTruthy();
    saveConfiguration({
      ...DEFAULT_CONFIGURATION,
      emailNotifications: {
        enabled: true,
        adminEmails: [{ id: admin!.id, username: admin!.username, email: "veraltet@example.com" }],
        externalEmails: ["vertrieb@example.com"],
      },
    });
    const description = `Eine Vorbestell-App für unsere Filialen. ${"Mehr Details folgen. ".repeat(10)}`;
    const res = await server.fetch("/api/requests", {
      method: "POST",
      body: multipart(
        validFields({ name: "Clara Kunde", description, altcha: await solvedAltcha(server.url) }),
      ),
    });
    expect(res.status).toBe(201);
    const { id } = await res.json();

    const external = await waitForMail("vertrieb@example.com");
    expect(external.subject).toBe(`Neue Anfrage #${String(id).padStart(4, "0")} von Clara Kunde`);
    const link = `https://portal.example.com/admin/requests?requestId=${id}`;
    expect(external.text).toContain(link);
    expect(external.html).toContain(link);
    // Summary fallback: the first 120 characters of the description.
    expect(external.text).toContain(`Zusammenfassung: ${description.trim().slice(0, 120)}`);
    expect(external.text).not.toContain(description.trim().slice(0, 121));
    // The admin's current address is used.
    expect(external.to).toContain(admin!.email);
  });

  it("sends nothing when notifications are disabled", async () => {
    saveConfiguration({
      ...DEFAULT_CONFIGURATION,
      emailNotifications: { enabled: false, adminEmails: [], externalEmails: ["aus@example.com"] },
    });
    const res = await server.fetch("/api/requests", {
      method: "POST",
      body: multipart(validFields({ altcha: await solvedAltcha(server.url) })),
    });
    expect(res.status).toBe(201);
    await server.drainOutbox();
    expect(inbox.mails.some((m) => m.to.includes("aus@example.com"))).toBe(false);
  });
});
