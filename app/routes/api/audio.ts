import { openStoredFile } from "~/server/attachments.server";
import { getAdmin } from "~/server/auth.server";
import { requestIdForAudio } from "~/server/requests/serialize.server";
import { visitorOwnsRequest } from "~/server/visitor.server";
import type { Route } from "./+types/audio";

const notFound = () => Response.json({ error: "Nicht gefunden" }, { status: 404 });

/**
 * GET /api/audio/{key}: the voice recording, only for the visitor who sent it or an admin.
 * Keys are random storage keys (no path traversal); Range requests allow seeking.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const key = params["*"] ?? "";
  const requestId = requestIdForAudio(key);
  if (!requestId) return notFound();
  const allowed = (await visitorOwnsRequest(request, requestId)) || !!(await getAdmin(request));
  if (!allowed) return notFound();
  const file = await openStoredFile(key);
  if (!file) return notFound();

  const headers = new Headers({
    "Content-Type": file.type || "audio/webm",
    "Accept-Ranges": "bytes",
    "Cache-Control": "private, no-store",
    "X-Content-Type-Options": "nosniff",
    "Content-Disposition": "inline",
  });
  const size = file.size;
  const range = request.headers.get("range");
  if (range) {
    const match = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
    let start = match?.[1] ? Number(match[1]) : Number.NaN;
    let end = match?.[2] ? Number(match[2]) : size - 1;
    if (match && !match[1] && match[2]) {
      start = Math.max(0, size - Number(match[2]));
      end = size - 1;
    }
    if (!match || Number.isNaN(start) || start > end || start >= size) {
      headers.set("Content-Range", `bytes */${size}`);
      return new Response(null, { status: 416, headers });
    }
    end = Math.min(end, size - 1);
    headers.set("Content-Range", `bytes ${start}-${end}/${size}`);
    headers.set("Content-Length", String(end - start + 1));
    return new Response(file.slice(start, end + 1).stream(), { status: 206, headers });
  }
  headers.set("Content-Length", String(size));
  return new Response(file.stream(), { status: 200, headers });
}

export const action = () =>
  Response.json({ error: "Methode nicht erlaubt" }, { status: 405, headers: { Allow: "GET" } });
