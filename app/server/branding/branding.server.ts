import { BRAND_NAME } from "~/lib/brand";
import { type Branding, resolveBranding } from "~/lib/branding";
import { parseMailbox } from "~/lib/calendar";
import { getConfiguration } from "../configuration/configuration.server";
import { env } from "../platform/env.server";

/**
 * The brand as pages, mails, calendar files and the embed use it (ADR 268): the stored
 * `branding` settings with every null replaced by today's text, the legal links by the env's.
 * Cheap (the configuration is cached); call it per request, never keep the result.
 */
export function branding(): Branding {
  const { PRIVACY_URL, IMPRINT_URL } = env();
  const config = getConfiguration();
  return resolveBranding(
    config.branding,
    { privacyUrl: PRIVACY_URL, imprintUrl: IMPRINT_URL },
    // The default texts say what the pipeline tracks (ADR 346).
    config.pipeline.promises,
  );
}

/**
 * The sender of every mail and the organiser of its invites: MAIL_FROM's address, and its display
 * name when it names one of its own; without one (a bare address, or the default
 * "Anfrage-Portal") the brand's name. nodemailer and the .ics writer escape the name.
 */
export function mailSender(): { name: string; address: string } {
  const { name, email } = parseMailbox(env().MAIL_FROM);
  const ownName = name !== email && name !== BRAND_NAME;
  return { name: ownName ? name : branding().name, address: email };
}
