// `npm run admin:reset-2fa -- <Benutzername oder E-Mail>`: turns off the second factor of an admin
// who lost their phone (they log in with the password and enrol again). Works against
// DATABASE_PATH like the server; uses the built server's resetTwoFactor (audited as
// "Kommandozeile", the admin is mailed through the outbox). Needs `npm run build` first.
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

type Reset = (
  who: string,
  actor: "Kommandozeile",
) =>
  | { ok: true; username: string; wasEnabled: boolean }
  | { ok: false; status: number; error: string };

const who = process.argv.slice(2).find((a) => !a.startsWith("--"));
if (!who) {
  console.error("Aufruf: npm run admin:reset-2fa -- <Benutzername oder E-Mail>");
  process.exit(2);
}
// The server's default (app/server/env.server.ts); a wrong path must not create an empty database.
const database = path.resolve(process.env.DATABASE_PATH || "db/data.sqlite");
if (!existsSync(database)) {
  console.error(`Keine Datenbank unter ${database} gefunden: DATABASE_PATH prüfen.`);
  process.exit(1);
}
const entry = path.resolve(process.env.BUILD_DIR ?? "build", "server/index.js");
if (!existsSync(entry)) {
  console.error(`Kein Server-Build unter ${entry} gefunden: zuerst npm run build ausführen.`);
  process.exit(1);
}
const build = (await import(pathToFileURL(entry).href)) as {
  entry: { module: { resetTwoFactor: Reset } };
};
const result = build.entry.module.resetTwoFactor(who, "Kommandozeile");
if (!result.ok) {
  console.error(`${result.error} (gesucht: Benutzername oder E-Mail-Adresse)`);
  process.exit(1);
}
console.log(
  result.wasEnabled
    ? `Zwei-Faktor-Anmeldung für ${result.username} zurückgesetzt. Die Anmeldung geht jetzt mit dem Passwort allein; ${result.username} kann sie unter „Account-Einstellungen“ neu einrichten.`
    : `${result.username} hatte keine Zwei-Faktor-Anmeldung eingeschaltet; nichts zu tun.`,
);
process.exit(0);
