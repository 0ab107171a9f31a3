import { redirect } from "react-router";
import { sameSitePath } from "~/lib/return-path";
import { expireFirstTouchCookie } from "~/server/attribution.server";
import { readForm } from "~/server/http.server";
import { consentCookie, consentRecord, expireAnalyticsCookies } from "~/server/preferences.server";
import type { Route } from "./+types/preferences.consent";

export const loader = () => redirect("/");

/**
 * 'Alle akzeptieren' (all), 'Nur notwendige' (necessary) or a custom choice of analytics. Without
 * analytics consent (also a withdrawal) the Google Analytics cookies are deleted.
 */
export async function action({ request }: Route.ActionArgs) {
  const form = await readForm(request);
  const choice = form.get("choice");
  const analytics = choice === "all" || (choice === "custom" && form.get("analytics") === "on");
  const marketing = choice === "all";
  const record = consentRecord(analytics, marketing);
  const headers = new Headers();
  headers.append("Set-Cookie", await consentCookie.serialize(record));
  if (!analytics) {
    for (const cookie of [...expireAnalyticsCookies(request), ...expireFirstTouchCookie(request)])
      headers.append("Set-Cookie", cookie);
  }
  if (form.get("js") === "1") return Response.json(record, { headers });
  return redirect(sameSitePath(form.get("redirectTo")), { status: 303, headers });
}
