import { readLogoForm, removeLogo, saveLogo } from "~/server/branding/logo.server";
import { adminApi, onlyMethod } from "~/server/http/api-route.server";
import { failureJson } from "~/server/platform/result.server";

/**
 * PUT (multipart, field `logo`: PNG, JPEG or WebP up to 256 KB) → `{ logoUrl }`; DELETE → 204
 * (ADRs 268, 293). The settings page's logo form calls the same functions.
 */
export const action = adminApi(
  { fallback: "Fehler beim Speichern des Logos", scope: "session", methods: ["PUT", "DELETE"] },
  async ({ request }) => {
    if (request.method === "DELETE") {
      await removeLogo();
      return new Response(null, { status: 204 });
    }
    const read = await readLogoForm(request);
    if (!read.ok) return failureJson(read);
    const { form } = read;
    const result = await saveLogo(form.get("logo"));
    if (!result.ok) return failureJson(result);
    return Response.json({ success: true, logoUrl: result.logoUrl });
  },
);

export const loader = onlyMethod("PUT, DELETE", { admin: true });
