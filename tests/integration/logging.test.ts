// Structured logs of the real server process (ADR 095): one JSON line per request, and no personal data or
// secrets anywhere in the captured output after the main visitor and admin flows.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSmtpInbox } from "../smtp-inbox";
import { linkToken } from "./auth-helpers";
import { multipart, validFields } from "./landing-fixtures";

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

let inbox: Awaited<ReturnType<typeof startSmtpInbox>>;
let dir: string;
beforeAll(async () => {
  inbox = await startSmtpInbox();
  dir = mkdtempSync(path.join(tmpdir(), "logging-"));
});
afterAll(async () => {
  await inbox.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("structured, scrubbed logs of the server process", () => {
  it("logs one JSON line per request and none of the e-mails, phones, passwords, tokens or links used", async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const child = spawn(process.execPath, ["server/index.ts"], {
      env: {
        ...process.env,
        NODE_ENV: "production",
        LOG_LEVEL: "info",
        HOST: "127.0.0.1",
        PORT: String(port),
        APP_URL: url,
        DATABASE_PATH: path.join(dir, "data.sqlite"),
        UPLOADS_DIR: path.join(dir, "uploads"),
        SMTP_URL: inbox.url,
        ADMIN_USERNAME: "admin",
        ADMIN_EMAIL: "chefin.log@example.com",
        ADMIN_PASSWORD: "admin-passwort-geheim",
      },
    });
    let output = "";
    child.stdout.on("data", (d) => {
      output += d;
    });
    child.stderr.on("data", (d) => {
      output += d;
    });
    const exited = new Promise((resolve) => child.on("exit", resolve));
    // Up to 30 s: on a loaded machine the boot alone can take 10 s.
    for (let i = 0; i < 300; i++) {
      try {
        if ((await (await fetch(`${url}/healthz`)).text()) === "OK") break;
      } catch {}
      await new Promise((r) => setTimeout(r, 100));
    }

    const secrets: string[] = ["admin-passwort-geheim", "chefin.log@example.com"];
    const json = (path: string, body: unknown, token?: string) =>
      fetch(url + path, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(body),
      });

    // Visitor: a submission through the API and one through the HTML form (no JavaScript).
    const visitor = validFields({ email: "lea.kundin@example.com", phone: "+49 30 98765432" });
    secrets.push(visitor.email, visitor.phone, "98765432");
    const submitted = await fetch(`${url}/api/requests`, {
      method: "POST",
      body: multipart(visitor),
    });
    expect(submitted.status).toBe(201);
    const requestId = submitted.headers.get("x-request-id");
    expect(requestId).toMatch(/^[\w-]{8,}$/);
    const htmlVisitor = validFields({ email: "tom.html@example.com", phone: "0221 5556667" });
    secrets.push(htmlVisitor.email, htmlVisitor.phone, "5556667");
    const form = await fetch(`${url}/?index&email=${encodeURIComponent(htmlVisitor.email)}`, {
      method: "POST",
      body: multipart(htmlVisitor),
      redirect: "manual",
    });
    expect(form.status).toBeLessThan(500);

    // Admin: login, invitation, registration, forgotten password and reset.
    const login = await json("/api/admin/auth/login", {
      username: "admin",
      password: "admin-passwort-geheim",
    });
    expect(login.status).toBe(200);
    const { token } = (await login.json()) as { token: string };
    secrets.push(token);
    expect(
      (await fetch(`${url}/admin/requests`, { headers: { authorization: `Bearer ${token}` } }))
        .status,
    ).toBe(200);

    expect(
      (await json("/api/admin/invite", { email: "neu.kollege@example.com" }, token)).status,
    ).toBe(201);
    secrets.push("neu.kollege@example.com");
    const invitation = linkToken(
      (await inbox.waitFor("neu.kollege@example.com", /Einladung/)).text,
      "/admin/register",
    );
    secrets.push(invitation, encodeURIComponent(invitation));
    expect((await fetch(`${url}/api/admin/invitations/validate/${invitation}`)).status).toBe(200);
    expect((await fetch(`${url}/admin/register?token=${invitation}`)).status).toBe(200);
    const registered = await json("/api/admin/register", {
      invitationToken: invitation,
      username: "kollege",
      password: "kollegen-passwort",
    });
    expect(registered.status).toBe(201);
    secrets.push("kollegen-passwort");

    expect(
      (await json("/api/admin/auth/forgot-password", { email: "chefin.log@example.com" })).status,
    ).toBe(200);
    const resetMail = await inbox.waitFor("chefin.log@example.com", /Passwort zurücksetzen/);
    const resetToken = linkToken(resetMail.text, "/admin/reset-password");
    secrets.push(resetToken, encodeURIComponent(resetToken));
    expect((await fetch(`${url}/admin/reset-password?token=${resetToken}`)).status).toBe(200);
    const reset = await json("/api/admin/auth/reset-password", {
      token: resetToken,
      newPassword: "neues-passwort-geheim",
    });
    expect(reset.status).toBe(200);
    secrets.push("neues-passwort-geheim");
    // A failed login names the user in the body only.
    expect(
      (
        await json("/api/admin/auth/login", {
          username: "chefin.log@example.com",
          password: "falsch-123456",
        })
      ).status,
    ).toBe(401);
    secrets.push("falsch-123456");

    child.kill("SIGTERM");
    await exited;

    // The one deliberate plain line: the first admin (here with the password from ADMIN_PASSWORD).
    expect(output).toContain(
      'Erster Admin angelegt: Benutzername "admin" (Passwort aus ADMIN_PASSWORD).',
    );
    const lines = output
      .split("\n")
      .filter(
        (l) => l.trim() && !l.startsWith("npm warn") && !l.startsWith("Erster Admin angelegt"),
      );
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const requests = entries.filter((e) => e.msg === "request" || e.msg === "request failed");
    // healthz + 12 calls of the flows above (the ADMIN_PASSWORD admin has no pending change, so no redirect).
    // The twelve requests of the flows above (plus however many health checks the start needed).
    expect(requests.filter((e) => e.route !== "/healthz").length).toBeGreaterThanOrEqual(12);
    for (const entry of requests) {
      expect(entry).toEqual(
        expect.objectContaining({
          reqId: expect.any(String),
          method: expect.stringMatching(/^(GET|POST)$/),
          route: expect.stringMatching(/^\//),
          routeId: expect.any(String),
          status: expect.any(Number),
          durationMs: expect.any(Number),
        }),
      );
      expect(String(entry.route)).not.toContain("?");
    }
    expect(requests.map((e) => e.reqId)).toContain(requestId);
    expect(requests.map((e) => e.route)).toContain("/api/admin/invitations/validate/:token");

    for (const secret of secrets) expect(output, `log contains ${secret}`).not.toContain(secret);
    expect(output).not.toMatch(/[\w.+-]+@example\.com/);
  }, 60_000);
});
