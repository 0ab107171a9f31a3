// Loaded on the first interaction with the contact form (keeps Zod out of the page's initial JS).
import { parseWithZod } from "@conform-to/zod/v4";
import { phoneError, RequestFormSchema } from "~/lib/request-form";

/** Field errors of the contact form by the same schema and Conform parsing as the server. */
export function validateContact(formData: FormData): Record<string, string[]> {
  const submission = parseWithZod(formData, { schema: RequestFormSchema });
  if (submission.status === "success") return {};
  const errors: Record<string, string[]> = {};
  for (const [name, list] of Object.entries(submission.reply().error ?? {})) {
    if (list?.length) errors[name] = list;
  }
  return errors;
}

export { phoneError };
