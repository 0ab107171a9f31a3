import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSession } from "~/server/accounts/auth.server";
import { solvedAltcha } from "../altcha-solution";
import { multipart, pdfBytes, validFields } from "./landing-fixtures";
import { startTestServer, type TestServer } from "./server";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const login = (password: string, key?: string) =>
  server.fetch("/api/admin/auth/login", {
    method: "POST",
    json: { username: "admin", password },
    headers: key ? { "Idempotency-Key": key } : {},
  });

describe("Idempotency-Key (root middleware)", () => {
  it("answers a repeated key with the first answer", async () => {
    const first = await login("falsch-falsch", "key-wrong-1");
    const second = await login("falsch-falsch", "key-wrong-1");
    expect(first.status).toBe(401);
    expect(second.status).toBe(first.status);
    expect(await second.json()).toEqual(await first.json());
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.headers.get("content-type")).toContain("application/json");
  });

  it("does not run the action twice: a retried login returns the same session token", async () => {
    const first = await login("admin-passwort", "key-login-1");
    const retry = await login("admin-passwort", "key-login-1");
    const other = await login("admin-passwort", "key-login-2");
    expect(first.status).toBe(200);
    const { token } = (await first.json()) as { token: string };
    expect(token).toBeTruthy();
    expect(((await retry.json()) as { token: string }).token).toBe(token);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    // A new key is a new call.
    expect(other.headers.get("idempotent-replayed")).toBeNull();
    expect(((await other.json()) as { token: string }).token).not.toBe(token);
  });

  it("runs calls without a key every time", async () => {
    const a = await login("admin-passwort");
    const b = await login("admin-passwort");
    expect(b.headers.get("idempotent-replayed")).toBeNull();
    expect(((await a.json()) as { token: string }).token).not.toBe(
      ((await b.json()) as { token: string }).token,
    );
  });

  it("replays a PATCH for the same Bearer token, but not for another caller", async () => {
    const token = createSession(1, { userAgent: "vitest" });
    const otherToken = createSession(1, { userAgent: "vitest-2" });
    const config = await (await server.fetch("/api/configuration", { token })).json();
    const patch = (t: string) =>
      server.fetch("/api/configuration", {
        method: "PATCH",
        token: t,
        json: config,
        headers: { "Idempotency-Key": "key-config-1" },
      });
    const first = await patch(token);
    const second = await patch(token);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(await second.json()).toEqual(await first.json());
    expect(second.headers.get("idempotent-replayed")).toBe("true");

    const fromOther = await patch(otherToken);
    expect(fromOther.status).toBe(200);
    expect(fromOther.headers.get("idempotent-replayed")).toBeNull();
  });

  it("ignores the key on GET", async () => {
    const get = () =>
      server.fetch("/api/configuration", { headers: { "Idempotency-Key": "key-get-1" } });
    await get();
    const again = await get();
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBeNull();
  });

  it("a visitor's retried submission creates one request and still gets its history cookie", async () => {
    // A solved proof of work (ADR 250): the request takes the normal flow, so the admin list shows it.
    const fields = validFields({ altcha: await solvedAltcha(server.url) });
    const send = () =>
      server.fetch("/api/requests", {
        method: "POST",
        headers: { "Idempotency-Key": "key-visitor-1" },
        body: multipart(fields, [{ name: "plan.pdf", bytes: pdfBytes(), type: "application/pdf" }]),
      });
    const first = await send();
    // The answer of the first is lost on the way; the browser sends the same again.
    const retry = await send();
    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    const created = (await first.json()) as { id: number };
    expect(((await retry.json()) as { id: number }).id).toBe(created.id);
    const cookie = retry.headers.get("set-cookie")?.split(";")[0] ?? "";
    expect(cookie).toBe(first.headers.get("set-cookie")?.split(";")[0]);
    expect(cookie).toMatch(/^visitor_requests=/);
    // The replayed cookie opens the visitor's history with that one request.
    const page = await server.fetch("/", { headers: { cookie } });
    const html = await page.text();
    expect(html.match(/data-testid="history-row"/g)).toHaveLength(1);

    const token = await server.adminToken();
    const list = await server.fetch("/api/admin/requests", { token });
    const { requests } = (await list.json()) as { requests: { email: string }[] };
    expect(requests.filter((r) => r.email === fields.email)).toHaveLength(1);
  });
});
