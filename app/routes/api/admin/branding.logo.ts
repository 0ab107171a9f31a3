import {
  LOGO_MISSING,
  LOGO_TOO_LARGE,
  readLogoForm,
  removeLogo,
  saveLogo,
} from "~/server/branding/logo.server";
import { adminApi, onlyMethod } from "~/server/http/api-route.server";
import { BodyError, jsonError } from "~/server/http/http.server";
import { failureJson } from "~/server/platform/result.server";

/**
 * PUT (multipart, field `logo`: PNG, JPEG or WebP up to 256 KB) → `{ logoUrl }`; DELETE → 204
 * (issue 29). The settings page's logo form calls the same functions.
 */
export const action = adminApi(
  { fallback: "Fehler beim Speichern des Logos", scope: "session", methods: ["PUT", "DELETE"] },
  async ({ request }) => {
    if (request.method === "DELETE") {
      await removeLogo();
      return new Response(null, { status: 204 });
    }
    let form: FormData | null;
    try {
      form = await readLogoForm(request);
    } catch (error) {
      if (!(error instanceof BodyError)) throw error;
      return jsonError(error.status === 413 ? LOGO_TOO_LARGE : error.message, error.status);
    }
    if (!form) return jsonError(LOGO_MISSING, 400);
    const result = await saveLogo(form.get("logo"));
    if (!result.ok) return failureJson(result);
    return Response.json({ success: true, logoUrl: result.logoUrl });
  },
);

export const loader = onlyMethod("PUT, DELETE", { admin: true });
