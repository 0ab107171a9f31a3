import { demoFeed } from "~/server/team-calendar/demo-feed.server";
import type { Route } from "./+types/kalender-ics";

/**
 * GET /admin/kalender.ics?token=… → the team's booked demos as a calendar feed (ADR 267). Guarded
 * by its token, not by a session (calendar apps have none); an unknown or revoked token is a 404.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const body = demoFeed(new URL(request.url).searchParams.get("token"));
  if (body === null) {
    return new Response("Kalender nicht gefunden.", {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  return new Response(body, {
    headers: {
      "Content-Type": "text/calendar; charset=utf-8",
      "Cache-Control": "private, no-store",
      "Referrer-Policy": "no-referrer",
    },
  });
}
