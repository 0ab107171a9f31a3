import { redirect } from "react-router";
import { readForm } from "~/server/http.server";
import { backTo, consentCookie, consentRecord } from "~/server/preferences.server";
import type { Route } from "./+types/preferences.consent";

export const loader = () => redirect("/");

/** 'Alle akzeptieren' (all), 'Nur notwendige' (necessary) or a custom choice of analytics. */
export async function action({ request }: Route.ActionArgs) {
  const form = await readForm(request);
  const choice = form.get("choice");
  const analytics = choice === "all" || (choice === "custom" && form.get("analytics") === "on");
  const marketing = choice === "all";
  const record = consentRecord(analytics, marketing);
  const headers = { "Set-Cookie": await consentCookie.serialize(record) };
  if (form.get("js") === "1") return Response.json(record, { headers });
  return redirect(backTo(form.get("redirectTo")), { status: 303, headers });
}
