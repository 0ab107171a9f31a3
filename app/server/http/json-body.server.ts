import { failure, type Result } from "../platform/result.server";
import { BodyError, MALFORMED_JSON, readBodyBytes } from "./http.server";

/** The JSON object body of a request (at most 1 MB), or its German 4xx failure. */
export async function readJsonObject(
  request: Request,
): Promise<Result<{ value: Record<string, unknown> }>> {
  let value: unknown;
  try {
    const text = new TextDecoder().decode(await readBodyBytes(request));
    value = text.trim() ? JSON.parse(text) : {};
  } catch (error) {
    if (error instanceof BodyError) return failure(error.status, error.message);
    return failure(400, MALFORMED_JSON);
  }
  if (!value || typeof value !== "object" || Array.isArray(value))
    return failure(400, MALFORMED_JSON);
  return { ok: true, value: value as Record<string, unknown> };
}

/** The raw text body (at most 1 MB) for signature checks (Cal.com webhook), or its German 4xx. */
export async function readText(request: Request): Promise<Result<{ value: string }>> {
  try {
    return { ok: true, value: new TextDecoder().decode(await readBodyBytes(request)) };
  } catch (error) {
    if (error instanceof BodyError) return failure(error.status, error.message);
    throw error;
  }
}
