import { requireApiAdmin } from "~/server/accounts/auth.server";
import { onlyMethod, publicApi } from "~/server/http/api-route.server";
import { fileResponse } from "~/server/http/file-response.server";
import { jsonError } from "~/server/http/http.server";
import { findAttachment } from "~/server/requests/manage.server";
import { openStoredFile } from "~/server/uploads/store.server";

const notFound = () => Response.json({ error: "Nicht gefunden" }, { status: 404 });
const INLINE = /^(image\/(png|jpeg|gif|webp|bmp)|application\/pdf)$/;

/**
 * GET /api/uploads/{filename}[?download=1]: attachments for admins only (session cookie, Bearer, or
 * an API token with `requests:read`). A token in the URL is never accepted (it would end up in
 * logs, history and Referer): the spec's `?token=` answers 401 (deliberate deviation, issue 27) —
 * checked before the admin, so even a request that also carries a cookie is refused. Images and PDFs
 * open inline, everything else downloads.
 */
export const loader = publicApi(
  { fallback: "Fehler beim Laden der Datei" },
  async ({ request, args }) => {
    const url = new URL(request.url);
    if (url.searchParams.has("token")) {
      return jsonError(
        "Ein Zugangsschlüssel in der Adresse wird nicht akzeptiert. Bitte melden Sie sich an oder senden Sie ihn im Authorization-Header.",
        401,
      );
    }
    const admin = await requireApiAdmin(request);
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
