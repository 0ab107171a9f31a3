import { redirect } from "react-router";
import { sameSitePath } from "~/lib/return-path";
import { readForm } from "~/server/http/http.server";
import { redirectCarryingReferrer } from "~/server/visitors/attribution.server";
import { themeCookie } from "~/server/visitors/preferences.server";
import type { Route } from "./+types/preferences.theme";

export const loader = () => redirect("/");

/** Sets the theme cookie. Without JS: back to the page; with JS (fetcher, js=1): a small JSON answer. */
export async function action({ request }: Route.ActionArgs) {
  const form = await readForm(request);
  const theme = form.get("theme") === "dark" ? "dark" : "light";
  const headers = { "Set-Cookie": await themeCookie.serialize(theme) };
  if (form.get("js") === "1") return Response.json({ theme }, { headers });
  // Without JS: back to the page, keeping the landing document's referrer (ADR 215).
  const back = redirectCarryingReferrer(sameSitePath(form.get("redirectTo")), request, form);
  return redirect(back, { status: 303, headers });
}
