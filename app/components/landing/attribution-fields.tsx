import { useActionData, useLoaderData } from "react-router";
import {
  ATTRIBUTION_FIELDS,
  ATTRIBUTION_KEYS,
  type Attribution,
  attributionOf,
  hasAttribution,
} from "~/lib/attribution";

/**
 * Hidden fields carrying the visit's attribution (utm_*, external referrer, landing path) with the
 * contact form. The server renders them from the request (the landing loader's `attribution`), so
 * they work without JS; after a refused no-JS post the values that were sent are kept (the page
 * re-rendered by the action is no longer the landing visit). The affiliate code (a referral is
 * attribution too) travels beside them.
 */
export function AttributionFields({ affiliateCode }: { affiliateCode?: string | null }) {
  const loaded = useLoaderData() as { attribution?: Attribution } | undefined;
  const acted = useActionData() as { result?: { initialValue?: Record<string, unknown> } } | null;
  const sent = acted?.result?.initialValue ? attributionOf(acted.result.initialValue) : null;
  const attribution = sent && hasAttribution(sent) ? sent : loaded?.attribution;
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
