/**
 * Marks an answer as a stored file streamed from disk: the server (server/handler.ts,
 * `STREAMED_FILE`, the same name) drops the header and gives the request's slot back before the
 * body goes out, so a client reading a large file slowly holds no slot (ADR 321, fourth amendment).
 */
const STREAMED_FILE = "x-anfrage-streamed-file";

/**
 * Streams a stored file with Range support (seeking in audio/PDF viewers) and a
 * Content-Disposition (nosniff comes from helmet); never buffers the whole file.
 */
export function fileResponse(
  request: Request,
  file: File,
  options: { type: string; disposition: "inline" | "attachment"; filename?: string },
): Response {
  const headers = new Headers({
    "Content-Type": options.type || "application/octet-stream",
    "Accept-Ranges": "bytes",
    "Cache-Control": "private, no-store",
    "Content-Disposition": contentDisposition(options.disposition, options.filename),
    [STREAMED_FILE]: "1",
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

/** RFC 6266 with an ASCII fallback and the UTF-8 name (umlauts survive). */
export function contentDisposition(type: "inline" | "attachment", filename?: string) {
  if (!filename) return type;
  const ascii = filename.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
