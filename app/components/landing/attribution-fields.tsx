import { useActionData, useRouteLoaderData } from "react-router";
import {
  ATTRIBUTION_FIELDS,
  ATTRIBUTION_KEYS,
  type Attribution,
  attributionOf,
  hasAttribution,
} from "~/lib/attribution";

/** The landing route's id (its loader renders the attribution). */
const LANDING_ROUTE = "routes/landing/index";

/** In the browser: the attribution of the document the visitor landed on (ADR 215). */
let landed: Attribution | null = null;

/**
 * The attribution of the document the visitor landed on. The landing loader renders it into the
 * document; its data requests (`.data`: a revalidation after the cookie bar's post, a client-side
 * navigation) carry none, so the browser keeps the document's for the life of the page. On the
 * server, this request's.
 */
export function useLandedAttribution(): Attribution | null {
  const page = useRouteLoaderData(LANDING_ROUTE) as
    | { attribution?: Attribution | null }
    | undefined;
  const current = page?.attribution ?? null;
  if (typeof document === "undefined") return current;
  if (current && !landed) landed = current;
  return landed ?? current;
}

/**
 * Hidden fields carrying the visit's attribution (utm_*, external referrer, landing path) with the
 * contact form (and the cookie bar, which remembers the first touch on consent). The server renders
 * them from the landing document (the landing loader's `attribution`), so they work without JS;
 * after a refused no-JS post the values that were sent are kept (the page re-rendered by the action
 * is no longer the landing visit). The affiliate code (a referral is attribution too) travels
 * beside them.
 */
export function AttributionFields({
  affiliateCode,
  embedAttribution,
}: {
  affiliateCode?: string | null;
  /** The framed form's (/embed, ADR 283): the host page as referrer, its utm_* parameters. */
  embedAttribution?: Attribution | null;
}) {
  const landed = useLandedAttribution();
  const loaded = embedAttribution ?? landed;
  const acted = useActionData() as { result?: { initialValue?: Record<string, unknown> } } | null;
  const sent = acted?.result?.initialValue ? attributionOf(acted.result.initialValue) : null;
  const attribution = sent && hasAttribution(sent) ? sent : loaded;
  return (
    <>
      {affiliateCode ? <input type="hidden" name="affiliateCode" value={affiliateCode} /> : null}
      {ATTRIBUTION_KEYS.map((key) =>
        attribution?.[key] ? (
          <input key={key} type="hidden" name={ATTRIBUTION_FIELDS[key]} value={attribution[key]} />
        ) : null,
      )}
    </>
  );
}

/**
 * The landing document's external referrer as a hidden field of a no-JS preference post (info
 * banner, theme), so the page it redirects to keeps it (ADR 215). Nothing outside the landing page.
 */
export function CarriedReferrer() {
  const referrer = useLandedAttribution()?.referrer;
  return referrer ? (
    <input type="hidden" name={ATTRIBUTION_FIELDS.referrer} value={referrer} />
  ) : null;
}
