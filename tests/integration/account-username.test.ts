// Review of "Mein Konto" (ADR 226): a rename must not let an admin sign the audit log as the system,
// the visitor or the command line, nor pose as a colleague with look-alike letters.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiLogin, insertAdmin, testDb } from "./auth-helpers";
import { startTestServer, type TestServer } from "./server";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const rename = (token: string, username: string) =>
  server.fetch("/api/admin/account", { method: "PATCH", token, json: { username } });

describe("renaming one's own account", () => {
  it("refuses the audit log's actor names (System, Besucher, Kommandozeile) in any case", async () => {
    const eve = await insertAdmin("eve-rename");
    const token = await apiLogin(server, eve.username, eve.password);
    for (const name of ["System", "system", "BESUCHER", "Kommandozeile", " System "]) {
      const res = await rename(token, name);
      expect(res.status, name).toBe(400);
      expect((await res.json()).fieldErrors.username).toEqual([
        "Dieser Benutzername ist reserviert.",
      ]);
    }
    const db = testDb();
    try {
      const row = db.prepare("SELECT username FROM admins WHERE id = ?").get(eve.id) as {
        username: string;
      };
      expect(row.username).toBe("eve-rename");
    } finally {
      db.close();
    }
  });

  it("refuses Latin mixed with Cyrillic or Greek look-alikes; a plain name still applies", async () => {
    const mallory = await insertAdmin("mallory-rename");
    const token = await apiLogin(server, mallory.username, mallory.password);
    // "аdmin" with a Cyrillic а (U+0430), "Αdmin" with a Greek Alpha (U+0391).
    for (const name of ["\u0430dmin", "\u0391dmin"]) {
      const res = await rename(token, name);
      expect(res.status, name).toBe(400);
    }
    // Whole names in one script stay allowed, as registration always allowed them.
    expect((await rename(token, "Мария")).status).toBe(200);
    expect((await rename(token, "Jürgen.Weiß")).status).toBe(200);
  });
});
