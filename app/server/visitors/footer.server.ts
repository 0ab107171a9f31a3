import { footerText } from "~/lib/branding";
import { formatYear } from "~/lib/format";
import { branding } from "../branding/branding.server";
import { getConfiguration } from "../configuration/configuration.server";
import { env } from "../platform/env.server";

/**
 * What the footer of every visitor page shows (the landing page and the visitor layout): the
 * company line, the legal links, "Barrierefreiheit" while the statement is published (ADR 340),
 * and "Cookie-Einstellungen" only where something needs consent — analytics (GA_MEASUREMENT_ID);
 * without it no cookie asks for consent and there is nothing to set (ADR 343).
 */
export function visitorFooter(now = Date.now()) {
  const brand = branding();
  return {
    line: footerText(brand, formatYear(now)),
    privacyUrl: brand.privacyUrl,
    imprintUrl: brand.imprintUrl,
    accessibility: getConfiguration().accessibility.publish,
    cookieSettings: consentNeeded(),
  };
}
export type VisitorFooter = ReturnType<typeof visitorFooter>;

/** Whether anything on the visitor pages needs consent: analytics, when configured. */
export const consentNeeded = () => Boolean(env().GA_MEASUREMENT_ID);
