import { onlyMethod, publicApi } from "~/server/api-route.server";
import { requireApiAdmin } from "~/server/auth.server";
import { fileResponse } from "~/server/file-response.server";
import { findAttachment } from "~/server/requests/manage.server";
import { openStoredFile } from "~/server/uploads/store.server";

const notFound = () => Response.json({ error: "Nicht gefunden" }, { status: 404 });
const INLINE = /^(image\/(png|jpeg|gif|webp|bmp)|application\/pdf)$/;

/**
 * GET /api/uploads/{filename}[?download=1]: attachments for admins only (session cookie, Bearer, or
 * the spec's `?token=`). Images and PDFs open inline, everything else downloads. `publicApi` with
 * the admin check inside: the token may come from the query string, which `adminApi` does not read.
 */
export const loader = publicApi(
  { fallback: "Fehler beim Laden der Datei" },
  async ({ request, args }) => {
    const params = args.params;
    const url = new URL(request.url);
    const token = url.searchParams.get("token");
    const authRequest = token
      ? new Request(request.url, { headers: { authorization: `Bearer ${token}` } })
      : request;
    const admin = await requireApiAdmin(authRequest);
    const row = findAttachment(params.filename ?? "", { actor: admin, request });
    if (!row) return notFound();
    const file = await openStoredFile(row.filename);
    if (!file) return notFound();
    const download = url.searchParams.has("download") || !INLINE.test(row.mimeType);
    return fileResponse(request, file, {
      type: row.mimeType,
      disposition: download ? "attachment" : "inline",
      filename: row.originalName,
    });
  },
);

export const action = onlyMethod("GET");
