import { z } from "zod";
import { deleteAppointment } from "~/server/appointments/appointments.server";
import { setVideoLink } from "~/server/appointments/video-link.server";
import { type ApiArgs, adminApi, onlyMethod } from "~/server/http/api-route.server";
import { jsonError } from "~/server/http/http.server";
import { failureJson } from "~/server/platform/result.server";

const NOT_FOUND = "Termin nicht gefunden.";
const METHODS = ["DELETE", "PATCH"] as const;

/** DELETE /api/admin/appointments/{id}: removes the cached row only. */
const remove = adminApi(
  {
    fallback: "Fehler beim Löschen!",
    scope: "appointments:write",
    methods: METHODS,
    id: { param: "id", notFound: NOT_FOUND },
  },
  ({ id, admin }) =>
    deleteAppointment(id, admin)
      ? Response.json({ success: true, message: "Termin aus der Liste entfernt." })
      : jsonError(NOT_FOUND, 404),
);

/**
 * PATCH /api/admin/appointments/{id} `{ videoUrl }` (https, or null/"" to remove): the booking's
 * own video link (ADR 267); a change mails the visitor the updated invite.
 */
const patch = adminApi(
  {
    fallback: "Fehler beim Speichern!",
    scope: "appointments:write",
    methods: METHODS,
    id: { param: "id", notFound: NOT_FOUND },
    schema: z.object(
      { videoUrl: z.string().nullable() },
      { error: "Bitte geben Sie videoUrl an." },
    ),
  },
  async ({ id, body }) => {
    const result = await setVideoLink(id, body.videoUrl);
    if (!result.ok) return failureJson(result);
    return Response.json({
      success: true,
      changed: result.changed,
      appointment: result.appointment,
    });
  },
);

export const action = (args: ApiArgs) =>
  args.request.method === "PATCH" ? patch(args) : remove(args);

export const loader = onlyMethod(METHODS.join(", "));
