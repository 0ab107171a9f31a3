import { sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { admins } from "~db/schema";
import { action as logoutAction } from "../../routes/admin/logout";
import { db } from "../platform/db.server";
import { createSession, getAdmin } from "./auth.server";

function adminWithSession(username: string) {
  const id = db()
    .insert(admins)
    .values({
      username,
      email: `${username}@example.com`,
      passwordHash: "x",
      isActive: true,
      passwordChanged: true,
    })
    .returning({ id: admins.id })
    .get().id;
  return createSession(id);
}

const logout = (token: string): Promise<Response> =>
  logoutAction({
    request: new Request("http://localhost/admin/logout", {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
    }),
  } as Parameters<typeof logoutAction>[0]).then(
    () => Response.error(),
    (thrown: unknown) => thrown as Response,
  );

describe("logout", () => {
  it("ends the session and lands on the login page", async () => {
    const token = adminWithSession("abmelder");
    const res = await logout(token);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/admin/login?notice=logged-out");
    expect(res.headers.get("set-cookie")).toMatch(/__session=;.*Max-Age=0/i);
    const request = new Request("http://localhost/", {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(await getAdmin(request)).toBeNull();
  });

  // product-spec §4 Login: "Logout always navigates to login, even on error."
  it("still lands on the login page, cookie cleared, when ending the session fails", async () => {
    const token = adminWithSession("pechvogel");
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    db().run(sql`ALTER TABLE sessions RENAME TO sessions_away`);
    try {
      const res = await logout(token);
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe("/admin/login?notice=logged-out");
      expect(res.headers.get("set-cookie")).toMatch(/__session=;.*Max-Age=0/i);
      expect(logged).toHaveBeenCalledWith(
        "Abmelden: Sitzung nicht gelöscht:",
        expect.stringContaining("sessions"),
      );
    } finally {
      db().run(sql`ALTER TABLE sessions_away RENAME TO sessions`);
      logged.mockRestore();
    }
  });
});
