import type { z } from "zod";

/**
 * The one way a Zod error becomes field errors (for /api answers and server-checked forms):
 * `{ "path.to.field": [messages] }`, errors about the whole input under `form`.
 */
export function fieldErrorsOf(error: z.ZodError): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.join(".") || "form";
    out[key] = [...(out[key] ?? []), issue.message];
  }
  return out;
}
