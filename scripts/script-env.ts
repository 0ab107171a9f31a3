// The scripts' view of the configuration: the server's own parser (app/server/platform/env.server.ts), so a
// script never has a default of its own; a bad value stops it with the server's one-line message.
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { EnvError, readEnvVariables } from "../app/server/platform/env.server.ts";
import { privateFiles } from "../server/private-files.ts";

/** The configuration; what the script writes from here on is private to its user (ADR 324). */
export function scriptEnv() {
  try {
    const variables = readEnvVariables();
    privateFiles(variables.DATABASE_PATH, variables.UPLOADS_DIR);
    return variables;
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}

type Outcome<R> = ({ ok: true } & R) | { ok: false; status: number; error: string };

/**
 * An admin command (`npm run <command> -- <Benutzername oder E-Mail>`) against DATABASE_PATH like
 * the server: loads the built server's entry module (needs `npm run build` first), runs `run` with
 * the admin's name, prints `report`'s lines or the error, and exits.
 */
export async function runAdminScript<Module, R>(
  command: string,
  run: (module: Module, who: string) => Outcome<R>,
  report: (result: R) => string[],
): Promise<never> {
  const who = process.argv.slice(2).find((a) => !a.startsWith("--"));
  if (!who) {
    console.error(`Aufruf: npm run ${command} -- <Benutzername oder E-Mail>`);
    process.exit(2);
  }
  // A wrong path must not create an empty database.
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
  const build = (await import(pathToFileURL(entry).href)) as { entry: { module: Module } };
  const result = run(build.entry.module, who);
  if (!result.ok) {
    console.error(`${result.error} (gesucht: Benutzername oder E-Mail-Adresse)`);
    process.exit(1);
  }
  for (const line of report(result)) console.log(line);
  process.exit(0);
}
