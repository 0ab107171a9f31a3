import { randomBytes } from "node:crypto";
import { count } from "drizzle-orm";
import { admins } from "~db/schema";
import { hashPassword } from "../platform/crypto.server";
import { db } from "../platform/db.server";
import { env } from "../platform/env.server";

/** Plain text on stdout, past the JSON logger: the one deliberate exception to "no secrets in logs". */
const printPlain = (line: string) => {
  process.stdout.write(`${line}\n`);
};

/** The first admin's e-mail when ADMIN_EMAIL is not set (a valid address, so "Passwort vergessen" accepts it). */
export const DEFAULT_ADMIN_EMAIL = "admin@localhost.localdomain";

type FirstAdminConfig = Partial<
  Pick<ReturnType<typeof env>, "ADMIN_USERNAME" | "ADMIN_EMAIL" | "ADMIN_PASSWORD">
>;

/**
 * When no admin exists: create one from ADMIN_* or `admin` with a random password printed once.
 * Only the random, printed password must be changed at first login (password_changed = false);
 * a password the operator chose through ADMIN_PASSWORD is kept.
 */
export async function ensureFirstAdmin(
  log: (line: string) => void = printPlain,
  config: FirstAdminConfig = env(),
) {
  const existing = db().select({ n: count() }).from(admins).get();
  if ((existing?.n ?? 0) > 0) return;
  const { ADMIN_USERNAME, ADMIN_EMAIL, ADMIN_PASSWORD } = config;
  const username = ADMIN_USERNAME ?? "admin";
  const password = ADMIN_PASSWORD ?? randomBytes(9).toString("base64url");
  const email = ADMIN_EMAIL ?? DEFAULT_ADMIN_EMAIL;
  const passwordHash = await hashPassword(password);
  const inserted = db()
    .insert(admins)
    .values({
      username,
      email,
      passwordHash,
      isActive: true,
      passwordChanged: Boolean(ADMIN_PASSWORD),
    })
    .onConflictDoNothing()
    .run();
  if (inserted.changes === 0) return;
  if (ADMIN_PASSWORD) {
    log(`Erster Admin angelegt: Benutzername "${username}" (Passwort aus ADMIN_PASSWORD).`);
  } else {
    log(
      `Erster Admin angelegt: Benutzername "${username}", Passwort "${password}" (bitte beim ersten Login ändern).`,
    );
  }
}
