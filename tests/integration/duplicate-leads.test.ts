import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eraseRequest } from "~/server/privacy/erasure.server";
import { earlierRequestCounts, earlierRequestsOf } from "~/server/requests/duplicates.server";
import { solvedAltcha } from "../altcha-solution";
import { insertAdmin } from "./auth-helpers";
import { multipart, validFields } from "./landing-fixtures";
import { startTestServer, type TestServer } from "./server";

let server: TestServer;
let cookie: string;
beforeAll(async () => {
  server = await startTestServer({ SUBMISSION_RATE_LIMIT: "1000/1h" });
  const admin = await insertAdmin("doppel-admin", { passwordChanged: true });
  const login = await server.fetch("/admin/login", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username: admin.username, password: admin.password }).toString(),
  });
  cookie = login.headers.get("set-cookie")?.split(";")[0] as string;
});
afterAll(() => server.close());

async function submit(fields: Record<string, string>): Promise<number> {
  const res = await server.fetch("/api/requests", {
    method: "POST",
    // A solved proof of work: the request takes the normal flow and shows in the lists (ADR 250).
    body: multipart(validFields({ ...fields, altcha: await solvedAltcha(server.url) })),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: number }).id;
}

describe("duplicate leads", () => {
  it("marks a request whose e-mail (any case) or phone (any spelling) already has requests", async () => {
    const first = await submit({
      name: "Doris Doppelt",
      email: "doris.doppelt@example.com",
      phone: "+49 30 5550001",
    });
    const byEmail = await submit({
      name: "Doris D.",
      email: "  Doris.Doppelt@EXAMPLE.com",
      phone: "+49 40 9990002",
    });
    const byPhone = await submit({
      name: "D. Doppelt",
      email: "dd@example.org",
      phone: "030 555-0001",
    });
    const stranger = await submit({
      name: "Fremde Frieda",
      email: "frieda@example.net",
      phone: "+49 89 1112223",
    });
    const counts = earlierRequestCounts([first, byEmail, byPhone, stranger]);
    expect(counts.get(first)).toBeUndefined();
    expect(counts.get(byEmail)).toBe(1);
    expect(counts.get(byPhone)).toBe(1);
    expect(counts.get(stranger)).toBeUndefined();
    expect(earlierRequestsOf(byPhone).map((r) => r.id)).toEqual([first]);

    const list = await (
      await server.fetch("/admin/requests?q=Doppelt", { headers: { cookie } })
    ).text();
    expect(list.match(/data-duplicate-badge="">1 frühere Anfrage</g)).toHaveLength(2);

    const view = await (
      await server.fetch(`/admin/requests?requestId=${byEmail}`, { headers: { cookie } })
    ).text();
    expect(view).toContain("Frühere Anfragen dieser Person");
    expect(view).toContain(`href="/admin/requests?requestId=${first}"`);
    const firstView = await (
      await server.fetch(`/admin/requests?requestId=${first}`, { headers: { cookie } })
    ).text();
    expect(firstView).not.toContain("Frühere Anfragen dieser Person");
  });

  it("an anonymised request no longer links the person", async () => {
    const old = await submit({ email: "anon.dup@example.com", phone: "+49 69 3334445" });
    const again = await submit({ email: "anon.dup@example.com", phone: "+49 69 3334445" });
    expect(earlierRequestCounts([again]).get(again)).toBe(1);
    await eraseRequest(old, "anonymize");
    expect(earlierRequestCounts([again]).get(again)).toBeUndefined();
  });
});
