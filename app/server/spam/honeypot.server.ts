import { data } from "react-router";
import { HONEYPOT_FIELD } from "~/lib/honeypot";

/** Neutral on purpose (visitor and admin pages alike): a bot learns nothing from it. */
export const HONEYPOT_REFUSED = "Das Formular konnte nicht angenommen werden.";

/** Whether the hidden honeypot field of a public form was filled (a bot). */
export function honeypotFilled(form: FormData | Record<string, string>): boolean {
  const value = form instanceof FormData ? form.get(HONEYPOT_FIELD) : form[HONEYPOT_FIELD];
  return typeof value === "string" && value.length > 0;
}

/**
 * The one check of every public form's action: a filled honeypot ends the post with 400 before
 * any rule, rate limit or side effect runs (thrown, so the route's ErrorBoundary shows the text).
 */
export function refuseFilledHoneypot(form: FormData | Record<string, string>) {
  if (honeypotFilled(form)) throw data(HONEYPOT_REFUSED, { status: 400 });
}
