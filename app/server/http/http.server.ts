/**
 * The one HTTP adapter layer of route modules: bounded body reading, German JSON errors, method and
 * id checks. Every `/api` route and every page action reads its body through here (ADR 080).
 */

/** JSON and url-encoded bodies (and the non-upload forms' multipart) never exceed this. */
export const SMALL_BODY_MAX_BYTES = 1024 * 1024;

export const BODY_TOO_LARGE = "Die Anfrage ist zu groß (höchstens 1 MB).";
export const MALFORMED_FORM = "Die Formulardaten konnten nicht gelesen werden.";
export const MALFORMED_JSON = "Ungültiges JSON im Anfrage-Body.";
export const UNSUPPORTED_TYPE = "Dieses Anfrageformat wird nicht unterstützt.";

/** A German JSON error answer: `{ success: false, error, message, fieldErrors? }`. */
export function jsonError(
  error: string,
  status: number,
  extra: { fieldErrors?: Record<string, string[] | null | undefined>; headers?: HeadersInit } = {},
) {
  const fieldErrors = extra.fieldErrors
    ? Object.fromEntries(Object.entries(extra.fieldErrors).filter(([, v]) => v?.length))
    : undefined;
  return Response.json(
    { success: false, error, message: error, ...(fieldErrors ? { fieldErrors } : {}) },
    { status, headers: extra.headers },
  );
}

/** First message of a failed validation (for the `error` text beside `fieldErrors`). */
export function firstError(errors: Record<string, string[] | null | undefined> | undefined) {
  for (const list of Object.values(errors ?? {})) if (list?.length) return list[0];
  return "Ungültige Eingabe";
}

export const methodNotAllowed = (allow: string) =>
  Response.json(
    { success: false, error: "Methode nicht erlaubt", message: "Methode nicht erlaubt" },
    { status: 405, headers: { Allow: allow } },
  );

/** A positive integer id from a route param, or null (→ 404). */
export function parseId(value: string | undefined): number | null {
  if (!value || !/^\d{1,15}$/.test(value)) return null;
  const id = Number(value);
  return id > 0 ? id : null;
}

export class BodyError extends Error {
  constructor(
    readonly status: 400 | 413 | 415,
    message: string,
  ) {
    super(message);
    this.name = "BodyError";
  }
}

/**
 * Reads at most `max` bytes of the body; more (declared or streamed) is a 413 before the rest is
 * buffered. A stream cut by the server's guard (server/guards.ts) counts as too large as well.
 */
export async function readBodyBytes(request: Request, max = SMALL_BODY_MAX_BYTES) {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > max) throw new BodyError(413, BODY_TOO_LARGE);
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > max) {
        await reader.cancel().catch(() => {});
        throw new BodyError(413, BODY_TOO_LARGE);
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof BodyError) throw error;
    const code = (error as { code?: string } | null)?.code;
    throw new BodyError(
      code === "BODY_TOO_LARGE" ? 413 : 400,
      code === "BODY_TOO_LARGE" ? BODY_TOO_LARGE : MALFORMED_FORM,
    );
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

const mediaType = (request: Request) =>
  (request.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();

/**
 * The form data of a page action (url-encoded or multipart, at most 1 MB). Malformed or oversized
 * bodies and foreign content types are thrown as German 4xx responses, never a 500.
 */
export async function readForm(request: Request): Promise<FormData> {
  try {
    const type = mediaType(request);
    const bytes = await readBodyBytes(request);
    if (type === "application/x-www-form-urlencoded" || (type === "" && bytes.byteLength === 0)) {
      const form = new FormData();
      const text = new TextDecoder().decode(bytes);
      for (const [name, value] of new URLSearchParams(text)) form.append(name, value);
      return form;
    }
    if (type === "multipart/form-data") {
      try {
        return await new Response(bytes, {
          headers: { "content-type": request.headers.get("content-type") ?? "" },
        }).formData();
      } catch {
        throw new BodyError(400, MALFORMED_FORM);
      }
    }
    throw new BodyError(415, UNSUPPORTED_TYPE);
  } catch (error) {
    if (error instanceof BodyError) {
      throw new Response(error.message, {
        status: error.status,
        headers: { "Content-Type": "text/plain; charset=utf-8" },
      });
    }
    throw error;
  }
}

/**
 * Runs an /api handler; an unexpected failure (not a thrown Response) is logged and answered with
 * the spec's German default text for that call (§8) and status 500.
 */
export async function withApiFallback(
  message: string,
  handler: () => Response | Promise<Response>,
): Promise<Response> {
  try {
    return await handler();
  } catch (error) {
    if (error instanceof Response) throw error;
    console.error(`${message}:`, error);
    return jsonError(message, 500);
  }
}
