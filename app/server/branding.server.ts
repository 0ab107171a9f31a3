import { type Branding, resolveBranding } from "~/lib/branding";
import { getConfiguration } from "./configuration.server";
import { env } from "./env.server";

/**
 * The brand as pages, mails, calendar files and the embed use it (issue 29): the stored
 * `branding` settings with every null replaced by today's text, the legal links by the env's.
 * Cheap (the configuration is cached); call it per request, never keep the result.
 */
export function branding(): Branding {
  const { PRIVACY_URL, IMPRINT_URL } = env();
  return resolveBranding(getConfiguration().branding, {
    privacyUrl: PRIVACY_URL,
    imprintUrl: IMPRINT_URL,
  });
}
