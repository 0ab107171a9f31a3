import { redirect } from "react-router";
import { sameSitePath } from "~/lib/return-path";
import { readForm } from "~/server/http/http.server";
import {
  expireFirstTouchCookie,
  firstTouchFromConsentForm,
  redirectCarryingReferrer,
} from "~/server/visitors/attribution.server";
import {
  consentCookie,
  consentRecord,
  expireAnalyticsCookies,
} from "~/server/visitors/preferences.server";
import type { Route } from "./+types/preferences.consent";

export const loader = () => redirect("/");

/**
 * 'Alle akzeptieren' (all), 'Nur notwendige' (necessary) or a custom choice of analytics. Without
 * analytics consent (also a withdrawal) the Google Analytics cookies are deleted. With it, the
 * first touch is remembered from the landing document's attribution the form posts (ADR 215).
 */
export async function action({ request }: Route.ActionArgs) {
  const form = await readForm(request);
  const choice = form.get("choice");
  const analytics = choice === "all" || (choice === "custom" && form.get("analytics") === "on");
  const marketing = choice === "all";
  const record = consentRecord(analytics, marketing);
  const headers = new Headers();
  headers.append("Set-Cookie", await consentCookie.serialize(record));
  if (analytics) {
    const firstTouch = await firstTouchFromConsentForm(request, form);
    if (firstTouch) headers.append("Set-Cookie", firstTouch);
  } else {
    for (const cookie of [...expireAnalyticsCookies(request), ...expireFirstTouchCookie(request)])
      headers.append("Set-Cookie", cookie);
  }
  if (form.get("js") === "1") return Response.json(record, { headers });
  const back = sameSitePath(form.get("redirectTo"));
  return redirect(analytics ? back : redirectCarryingReferrer(back, request, form), {
    status: 303,
    headers,
  });
}
