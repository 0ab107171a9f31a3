import { visitorCalendarFile } from "~/server/appointments/visitor.server";
import { parseId } from "~/server/http/http.server";
import type { Route } from "./+types/termin-kalender";

/** GET /termin/kalender?anfrage=ID → the booked demo as .ics (own requests only, else 404). */
export async function loader({ request }: Route.LoaderArgs) {
  const id = parseId(new URL(request.url).searchParams.get("anfrage") ?? undefined);
  const file = id ? await visitorCalendarFile(request, id) : null;
  if (!file) {
    return new Response("Kein gebuchter Termin für diese Anfrage gefunden.", {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  return new Response(file.body, {
    headers: {
      "Content-Type": "text/calendar; charset=utf-8",
      "Content-Disposition": `attachment; filename="${file.fileName}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
