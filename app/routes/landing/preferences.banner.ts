import { redirect } from "react-router";
import { sameSitePath } from "~/lib/return-path";
import { readForm } from "~/server/http/http.server";
import { redirectCarryingReferrer } from "~/server/visitors/attribution.server";
import { dismissedBannersCookie, readDismissedBanners } from "~/server/visitors/preferences.server";
import type { Route } from "./+types/preferences.banner";

export const loader = () => redirect("/");

/** Remembers a closed info banner by the key of its text (the last 20 keys are kept). */
export async function action({ request }: Route.ActionArgs) {
  const form = await readForm(request);
  const key = String(form.get("key") ?? "");
  const keys = await readDismissedBanners(request);
  const next = /^[0-9a-f]{8}$/.test(key)
    ? [...keys.filter((k) => k !== key), key].slice(-20)
    : keys;
  const headers = { "Set-Cookie": await dismissedBannersCookie.serialize(next) };
  if (form.get("js") === "1") return Response.json({ dismissed: next }, { headers });
  // Without JS: back to the page, keeping the landing document's referrer (ADR 215).
  const back = redirectCarryingReferrer(sameSitePath(form.get("redirectTo")), request, form);
  return redirect(back, { status: 303, headers });
}
