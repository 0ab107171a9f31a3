import { MessageSchema } from "~/lib/request-message";
import { adminApi } from "~/server/http/api-route.server";
import { failureJson } from "~/server/platform/result.server";
import { REQUEST_ID } from "~/server/requests/api.server";
import { messagesOf, sendMessage } from "~/server/requests/messages.server";
import { loadRequestJson } from "~/server/requests/serialize.server";

/** GET /api/admin/requests/{id}/messages: the thread with the lead, oldest first (ADR 273). */
export const loader = adminApi(
  { fallback: "Fehler beim Abrufen der Nachrichten", scope: "requests:read", id: REQUEST_ID },
  ({ id }) => {
    if (!loadRequestJson(id))
      return Response.json({ success: false, error: "Anfrage nicht gefunden." }, { status: 404 });
    return Response.json(messagesOf([id]).get(id) ?? [], {
      headers: { "Cache-Control": "no-store" },
    });
  },
);

/** POST /api/admin/requests/{id}/messages {subject, body} → 201 with the message. */
export const action = adminApi(
  {
    fallback: "Fehler beim Senden der Nachricht",
    scope: "messages:write",
    methods: ["POST"],
    allow: "GET, POST",
    id: REQUEST_ID,
    schema: MessageSchema,
  },
  async ({ id, body, admin }) => {
    const result = await sendMessage(id, admin, body);
    if (!result.ok) return failureJson(result);
    return Response.json(result.message, { status: 201 });
  },
);
