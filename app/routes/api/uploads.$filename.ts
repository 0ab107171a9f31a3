import { adminApi, onlyMethod } from "~/server/http/api-route.server";
import { fileResponse } from "~/server/http/file-response.server";
import { findAttachment } from "~/server/requests/manage.server";
import { openStoredFile } from "~/server/uploads/store.server";

const notFound = () => Response.json({ error: "Nicht gefunden" }, { status: 404 });
const INLINE = /^(image\/(png|jpeg|gif|webp|bmp)|application\/pdf)$/;

/**
 * GET /api/uploads/{filename}[?download=1]: attachments for admins only (session cookie, Bearer, or
 * an API token with `requests:read`). A token in the URL is never accepted (it would end up in
 * logs, history and Referer): the spec's `?token=` answers 401 (deliberate deviation, ADR 260) —
 * checked before the admin, so even a request that also carries a cookie is refused. Images and PDFs
 * open inline, everything else downloads.
 */
export const loader = adminApi(
  { fallback: "Fehler beim Laden der Datei", scope: "requests:read", refuseQueryToken: true },
  async ({ request, args, admin }) => {
    const url = new URL(request.url);
    const row = findAttachment(args.params.filename ?? "", { actor: admin, request });
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
