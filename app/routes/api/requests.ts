import { adminApi, noStoreJsonParts, publicApi } from "~/server/http/api-route.server";
import { clientIp } from "~/server/http/request-context.server";
import { adminRequestsJsonParts } from "~/server/requests/admin-list.server";
import { listAllRequestIds } from "~/server/requests/queries.server";
import { submitRequest } from "~/server/requests/submit.server";
import { workItemsVisibleTo } from "~/server/requests/work-items.server";

/** GET /api/requests: the spec's list (array, newest first) — admins only (deliberate deviation). */
export const loader = adminApi(
  { fallback: "Fehler beim Abrufen der Requests", scope: "requests:read" },
  ({ admin }) =>
    noStoreJsonParts(
      adminRequestsJsonParts(
        listAllRequestIds({ archived: false }),
        undefined,
        workItemsVisibleTo(admin),
      ),
    ),
);

/**
 * POST /api/requests (multipart): 201 with the created request; 400/413/429 with German errors.
 * No `json`/`schema` option: `submitRequest` streams the multipart body itself (files to storage).
 */
export const action = publicApi(
  { fallback: "Fehler beim Senden der Anfrage", methods: ["POST"], allow: "GET, POST" },
  async ({ request, args }) => {
    const result = await submitRequest(request, clientIp(args.context));
    if (result.ok) {
      // uploadWarning: the text was saved but the files were refused (disk almost full).
      // embed: the framed form's "gesendet" token and signed booking link (ADR 283).
      const body = {
        ...result.request,
        ...(result.filesRefused ? { uploadWarning: result.filesRefused } : {}),
        ...(result.embed ? { embed: result.embed } : {}),
      };
      const headers = new Headers({ Location: `/api/requests/${result.request.id}` });
      if (result.setCookie) headers.append("Set-Cookie", result.setCookie);
      // The JS form revalidates after success: the root loader then shows the warning as a toast.
      if (result.toastCookie) headers.append("Set-Cookie", result.toastCookie);
      return Response.json(body, { status: 201, headers });
    }
    return Response.json(
      {
        error: result.error,
        ...(result.fieldErrors && Object.keys(result.fieldErrors).length
          ? { fieldErrors: result.fieldErrors }
          : {}),
        ...(result.uploadErrors ? { uploadErrors: result.uploadErrors } : {}),
      },
      {
        status: result.status,
        headers: result.retryAfterSeconds
          ? { "Retry-After": String(result.retryAfterSeconds) }
          : {},
      },
    );
  },
);
