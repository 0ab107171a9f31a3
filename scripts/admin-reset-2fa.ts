// `npm run admin:reset-2fa -- <Benutzername oder E-Mail>`: turns off the second factor of an admin
// who lost their phone (they log in with the password and enrol again). Works against
// DATABASE_PATH like the server; uses the built server's resetTwoFactor (audited as
// "Kommandozeile", the admin is mailed through the outbox). Needs `npm run build` first.
import { runAdminScript } from "./script-env.ts";

type Reset = (
  who: string,
  actor: "Kommandozeile",
) =>
  | { ok: true; username: string; wasEnabled: boolean }
  | { ok: false; status: number; error: string };

await runAdminScript(
  "admin:reset-2fa",
  (module: { resetTwoFactor: Reset }, who) => module.resetTwoFactor(who, "Kommandozeile"),
  (result) => [
    result.wasEnabled
      ? `Zwei-Faktor-Anmeldung für ${result.username} zurückgesetzt. Die Anmeldung geht jetzt mit dem Passwort allein; ${result.username} kann sie unter „Account-Einstellungen“ neu einrichten.`
      : `${result.username} hatte keine Zwei-Faktor-Anmeldung eingeschaltet; nichts zu tun.`,
  ],
);
