import { getApiAdmin } from "~/server/accounts/auth.server";
import { onlyMethod, publicApi } from "~/server/http/api-route.server";
import { fileResponse } from "~/server/http/file-response.server";
import { requestIdForAudio } from "~/server/requests/serialize.server";
import { openStoredFile } from "~/server/uploads/store.server";
import { visitorOwnsRequest } from "~/server/visitors/visitor.server";

const notFound = () => Response.json({ error: "Nicht gefunden" }, { status: 404 });

/**
 * GET /api/audio/{key}: the voice recording, only for the visitor who sent it or an admin.
 * Keys are random storage keys (no path traversal); Range requests allow seeking. Its own access
 * rule (the visitor's cookie or an admin), so `publicApi` with the check inside.
 */
export const loader = publicApi(
  { fallback: "Fehler beim Laden der Aufnahme" },
  async ({ request, args }) => {
    const key = args.params["*"] ?? "";
    const requestId = requestIdForAudio(key);
    if (!requestId) return notFound();
    const allowed =
      (await visitorOwnsRequest(request, requestId)) || !!(await getApiAdmin(request));
    if (!allowed) return notFound();
    const file = await openStoredFile(key);
    if (!file) return notFound();

    return fileResponse(request, file, { type: file.type || "audio/webm", disposition: "inline" });
  },
);

export const action = onlyMethod("GET");
