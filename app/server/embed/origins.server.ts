import type { Configuration } from "~/lib/configuration";
import { EMBED_ORIGIN_HTTPS, isLoopbackHost } from "~/lib/embed";
import { env } from "../platform/env.server";

/** Whether APP_URL names a loopback host (then http loopback origins may embed the form). */
export function appIsLoopback(): boolean {
  try {
    return isLoopbackHost(new URL(env().APP_URL).hostname);
  } catch {
    return false;
  }
}

/**
 * An http origin is allowed only where the app itself runs on loopback (APP_URL) and the origin is
 * loopback too (the schema refuses other http origins already).
 */
export function embedOriginErrors(config: Configuration): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const appLoopback = appIsLoopback();
  config.embed.allowedOrigins.forEach((origin, i) => {
    if (origin.startsWith("http:") && !appLoopback)
      errors[`embed.allowedOrigins.${i}`] = [EMBED_ORIGIN_HTTPS];
  });
  return errors;
}
