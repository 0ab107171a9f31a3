import { adminApi, onlyMethod } from "~/server/http/api-route.server";
import { failureJson } from "~/server/platform/result.server";
import { REQUEST_ID } from "~/server/requests/api.server";
import { retranscribe } from "~/server/transcription/jobs.server";

/** POST /api/admin/requests/{id}/transcription: "Erneut transkribieren" → 202 (ADR 272). */
export const action = adminApi(
  {
    fallback: "Fehler beim Transkribieren",
    scope: "requests:write",
    methods: ["POST"],
    id: REQUEST_ID,
  },
  ({ id }) => {
    const result = retranscribe(id);
    if (!result.ok) return failureJson(result);
    return Response.json(
      {
        success: true,
        message: "Die Sprachnachricht wird erneut transkribiert.",
        voiceTranscriptStatus: "pending",
      },
      { status: 202 },
    );
  },
);

export const loader = onlyMethod("POST", { admin: true });
