import { data } from "react-router";
import type { TeamCalendarFormState } from "~/lib/team-calendar";
import { redirectWithToast } from "../http/flash.server";
import { parseId } from "../http/http.server";
import { refreshBusyFeeds } from "./busy-feeds.server";
import { createFeedToken, revokeFeedToken } from "./demo-feed.server";

/**
 * The settings page's small team-calendar forms beside the settings form (each its own post, no JS
 * needed): fetch the feeds now, and the demo feed's links (create, revoke). The feeds and the
 * video room themselves are fields of the settings form (one configuration save).
 */
export const isTeamCalendarIntent = (form: FormData) =>
  String(form.get("intent") ?? "").startsWith("team-calendar-");

export async function handleTeamCalendarAction(
  form: FormData,
  back: string,
  actor: { id: number; username: string },
) {
  const intent = String(form.get("intent"));
  // Back to the part of the page the post came from (without JS the page is loaded anew).
  const toast = (message: string, type: "success" | "error" = "success", anchor = "feed-links") =>
    redirectWithToast(`${back}#${anchor}`, { type, message });

  if (intent === "team-calendar-refresh") {
    refreshBusyFeeds();
    return toast("Die Kalender werden jetzt abgerufen.", "success", "teamCalendar");
  }
  if (intent === "team-calendar-link-create") {
    const created = createFeedToken(actor);
    if (!created.ok) return toast(created.error, "error");
    return data({ teamCalendar: { feedLink: created.url } satisfies TeamCalendarFormState });
  }
  if (intent === "team-calendar-link-revoke") {
    const id = parseId(String(form.get("tokenId") ?? ""));
    if (!id || !revokeFeedToken(actor, id)) return toast("Abo-Link nicht gefunden.", "error");
    return toast("Abo-Link widerrufen – Kalender mit diesem Link erhalten keine Termine mehr.");
  }
  return toast("Unbekannte Aktion.", "error");
}
