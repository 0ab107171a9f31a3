import { redirect } from "react-router";
import { sameSitePath } from "~/lib/return-path";
import { readForm } from "~/server/http.server";
import { dismissedBannersCookie, readDismissedBanners } from "~/server/preferences.server";
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
  return redirect(sameSitePath(form.get("redirectTo")), { status: 303, headers });
}
