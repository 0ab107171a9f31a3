import { randomBytes, scryptSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiLogin, testDb } from "./auth-helpers";
import { startTestServer, type TestServer } from "./server";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

/** A hash as the app wrote it before ADR 091 (scrypt N=2^15, r=8, p=1). */
function oldHash(password: string) {
  const salt = randomBytes(16);
  const key = scryptSync(password, salt, 64, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
  return ["scrypt", 2 ** 15, 8, 1, salt.toString("base64url"), key.toString("base64url")].join("$");
}

const storedHash = (username: string) => {
  const db = testDb();
  try {
    return (
      db.prepare("SELECT password_hash AS h FROM admins WHERE username = ?").get(username) as {
        h: string;
      }
    ).h;
  } finally {
    db.close();
  }
};

describe("re-hashing older password hashes", () => {
  it("upgrades a p=1 hash to today's N=2^14, p=5 at the next successful login, and the password keeps working", async () => {
    const db = testDb();
    db.prepare(
      "INSERT INTO admins (username, email, password_hash, is_active, password_changed) VALUES (?, ?, ?, 1, 1)",
    ).run("altkonto", "altkonto@example.com", oldHash("alt-passwort-1"));
    db.close();

    const wrong = await server.fetch("/api/admin/auth/login", {
      method: "POST",
      json: { username: "altkonto", password: "falsch-passwort" },
    });
    expect(wrong.status).toBe(401);
    expect(storedHash("altkonto")).toMatch(/^scrypt\$32768\$8\$1\$/);

    await apiLogin(server, "altkonto", "alt-passwort-1");
    expect(storedHash("altkonto")).toMatch(/^scrypt\$16384\$8\$5\$/);
    await apiLogin(server, "altkonto", "alt-passwort-1");
  });
});
