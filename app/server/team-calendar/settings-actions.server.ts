import { randomBytes } from "node:crypto";
import { data } from "react-router";
import type { TeamCalendarFormState } from "~/lib/team-calendar";
import { getConfiguration, patchConfiguration } from "../configuration.server";
import { redirectWithToast } from "../flash.server";
import { parseId } from "../http.server";
import { refreshBusyFeeds } from "./busy-feeds.server";
import { createFeedToken, revokeFeedToken } from "./demo-feed.server";

/**
 * The settings page's "Kalender des Teams" forms (each its own post, no JS needed): the fixed
 * video room, busy feeds (add, remove, fetch now) and the demo feed's links (create, revoke).
 * Feeds and the room are stored through the one configuration save (schema, SSRF rules, sealing).
 */
export const isTeamCalendarIntent = (form: FormData) =>
  String(form.get("intent") ?? "").startsWith("team-calendar-");

const refused = (field: "videoUrl" | "feedUrl", value: string, error: string) =>
  data({ teamCalendar: { field, value, error } satisfies TeamCalendarFormState }, { status: 400 });

const firstError = (errors: Record<string, string[]>, prefix: string) =>
  Object.entries(errors).find(([path]) => path.startsWith(prefix))?.[1]?.[0];

export async function handleTeamCalendarAction(
  form: FormData,
  back: string,
  actor: { id: number; username: string },
) {
  const intent = String(form.get("intent"));
  const stored = getConfiguration().teamCalendar;
  const toast = (message: string, type: "success" | "error" = "success") =>
    redirectWithToast(back, { type, message });

  if (intent === "team-calendar-video") {
    const value = String(form.get("videoUrl") ?? "").trim();
    const result = patchConfiguration({ teamCalendar: { videoUrl: value || null } });
    if (!result.ok)
      return refused(
        "videoUrl",
        value,
        firstError(result.fieldErrors, "teamCalendar.videoUrl") ?? result.error,
      );
    return toast(value ? "Videoraum gespeichert." : "Videoraum entfernt.");
  }
  if (intent === "team-calendar-feed-add") {
    const value = String(form.get("feedUrl") ?? "").trim();
    const feed = { id: `cal-${randomBytes(4).toString("hex")}`, url: value };
    const result = patchConfiguration({
      teamCalendar: { busyFeeds: [...stored.busyFeeds, feed] },
    });
    if (!result.ok)
      return refused(
        "feedUrl",
        value,
        firstError(result.fieldErrors, "teamCalendar.busyFeeds") ?? result.error,
      );
    refreshBusyFeeds();
    return toast("Kalender hinzugefügt – die belegten Zeiten werden jetzt abgerufen.");
  }
  if (intent === "team-calendar-feed-delete") {
    const id = String(form.get("feedId") ?? "");
    if (!stored.busyFeeds.some((f) => f.id === id))
      return toast("Kalender nicht gefunden.", "error");
    const result = patchConfiguration({
      teamCalendar: { busyFeeds: stored.busyFeeds.filter((f) => f.id !== id) },
    });
    if (!result.ok) return toast(result.error, "error");
    refreshBusyFeeds();
    return toast("Kalender entfernt.");
  }
  if (intent === "team-calendar-refresh") {
    refreshBusyFeeds();
    return toast("Die Kalender werden jetzt abgerufen.");
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
