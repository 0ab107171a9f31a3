// Without SMTP no invitation mail leaves the server, so the invite and resend APIs
// must not say "gesendet"; they say that no mail was sent and hand out the link to pass on.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiLogin } from "./auth-helpers";
import { startTestServer, type TestServer } from "./server";

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startTestServer({ SMTP_URL: undefined, APP_URL: "http://portal.test" });
  token = await apiLogin(server, "admin", "admin-passwort");
});
afterAll(async () => {
  await server.close();
  delete process.env.APP_URL;
});

describe("invitations without SMTP", () => {
  it("invite says no mail was sent and returns the link", async () => {
    const res = await server.fetch("/api/admin/invite", {
      method: "POST",
      token,
      json: { email: "ohne.smtp@example.com" },
    });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.mailed).toBe(false);
    expect(body.link).toBe(`http://portal.test/admin/register?token=${body.invitationToken}`);
    expect(body.message).not.toContain("gesendet");
    expect(body.message).toBe(
      "Einladung für ohne.smtp@example.com erstellt. Es wurde keine E-Mail versendet: Für den Mailversand ist kein SMTP-Server eingerichtet. Geben Sie den Einladungslink selbst weiter (7 Tage gültig).",
    );
  });

  it("resend says no mail was sent, the old link is dead, and returns the new link", async () => {
    const created = await (
      await server.fetch("/api/admin/invite", {
        method: "POST",
        token,
        json: { email: "nochmal@example.com" },
      })
    ).json();
    const res = await server.fetch(`/api/admin/invitations/${created.invitation.id}/resend`, {
      method: "POST",
      token,
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.mailed).toBe(false);
    expect(body.link).toContain(encodeURIComponent(body.invitationToken));
    expect(body.message).not.toContain("gesendet");
    expect(body.message).toBe(
      "Neuer Einladungslink für nochmal@example.com erstellt, der alte Link ist ungültig. Es wurde keine E-Mail versendet: Für den Mailversand ist kein SMTP-Server eingerichtet. Geben Sie den Einladungslink selbst weiter (7 Tage gültig).",
    );
  });
});
