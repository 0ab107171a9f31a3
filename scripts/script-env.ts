// The scripts' view of the configuration: the server's own parser (app/server/env.server.ts), so a
// script never has a default of its own; a bad value stops it with the server's one-line message.
import { EnvError, readEnvVariables } from "../app/server/env.server.ts";

export function scriptEnv() {
  try {
    return readEnvVariables();
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}
