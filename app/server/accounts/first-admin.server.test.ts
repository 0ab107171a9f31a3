import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ForgotPasswordSchema } from "~/lib/auth-forms";
import { admins } from "~db/schema";
import { db } from "../platform/db.server";
import { DEFAULT_ADMIN_EMAIL, ensureFirstAdmin } from "./first-admin.server";

const firstAdmin = () => db().select().from(admins).get();
const clear = () => db().delete(admins).run();

describe("first admin", () => {
  it("keeps a password chosen through ADMIN_PASSWORD (no forced change)", async () => {
    clear();
    const lines: string[] = [];
    await ensureFirstAdmin((line) => lines.push(line), {
      ADMIN_USERNAME: "chefin",
      ADMIN_PASSWORD: "gewaehltes-passwort",
    });
    const admin = firstAdmin();
    expect(admin).toMatchObject({ username: "chefin", passwordChanged: true });
    expect(admin?.email).toBe(DEFAULT_ADMIN_EMAIL);
    expect(lines.join("\n")).not.toContain("gewaehltes-passwort");
  });

  it("forces the change only for the random password printed to the log", async () => {
    clear();
    const lines: string[] = [];
    await ensureFirstAdmin((line) => lines.push(line), {});
    const admin = firstAdmin();
    expect(admin).toMatchObject({ username: "admin", passwordChanged: false });
    expect(lines.join("\n")).toMatch(/Passwort "[\w-]{12}"/);
    db().delete(admins).where(eq(admins.username, "admin")).run();
  });

  it("uses a default e-mail address that 'Passwort vergessen' accepts", () => {
    expect(ForgotPasswordSchema.safeParse({ email: DEFAULT_ADMIN_EMAIL }).success).toBe(true);
    expect(ForgotPasswordSchema.safeParse({ email: "admin@localhost" }).success).toBe(false);
  });
});
