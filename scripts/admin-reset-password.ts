// `npm run admin:reset-password -- <Benutzername oder E-Mail>`: prints a one-time link to set a new
// password for that admin (valid one hour), for a server without SMTP or a sole admin locked out.
// Works against DATABASE_PATH like the server; uses the built server's issueResetLink (the same
// tokens as "Passwort vergessen", audited as "Kommandozeile"). Needs `npm run build` first.
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { scriptEnv } from "./script-env.ts";

type Issue = (
  who: string,
  actor: "Kommandozeile",
) =>
  | { ok: true; username: string; link: string; expiresAt: Date }
  | { ok: false; status: number; error: string };

const who = process.argv.slice(2).find((a) => !a.startsWith("--"));
if (!who) {
  console.error("Aufruf: npm run admin:reset-password -- <Benutzername oder E-Mail>");
  process.exit(2);
}
// The server's variables and defaults (app/server/env.server.ts); a wrong path must not create an
// empty database.
const database = path.resolve(scriptEnv().DATABASE_PATH);
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
  entry: { module: { issueResetLink: Issue } };
};
const result = build.entry.module.issueResetLink(who, "Kommandozeile");
if (!result.ok) {
  console.error(`${result.error} (gesucht: Benutzername oder E-Mail-Adresse)`);
  process.exit(1);
}
console.log(`Link zum Zurücksetzen des Passworts für ${result.username}`);
console.log(`(gültig bis ${result.expiresAt.toISOString()}, nur einmal verwendbar):`);
console.log(result.link);
process.exit(0);
