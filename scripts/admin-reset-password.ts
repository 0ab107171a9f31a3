// `npm run admin:reset-password -- <Benutzername oder E-Mail>`: prints a one-time link to set a new
// password for that admin (valid one hour), for a server without SMTP or a sole admin locked out.
// Works against DATABASE_PATH like the server; uses the built server's issueResetLink (the same
// tokens as "Passwort vergessen", audited as "Kommandozeile"). Needs `npm run build` first.
import { runAdminScript } from "./script-env.ts";

type Issue = (
  who: string,
  actor: "Kommandozeile",
) =>
  | { ok: true; username: string; link: string; expiresAt: Date }
  | { ok: false; status: number; error: string };

await runAdminScript(
  "admin:reset-password",
  (module: { issueResetLink: Issue }, who) => module.issueResetLink(who, "Kommandozeile"),
  (result) => [
    `Link zum Zurücksetzen des Passworts für ${result.username}`,
    `(gültig bis ${result.expiresAt.toISOString()}, nur einmal verwendbar):`,
    result.link,
  ],
);
