import { data } from "react-router";
import type { ConfirmationStepData } from "~/lib/confirmation";

/**
 * Destructive actions ask first. Returns null when the form carries `confirmed=1` (the modal or
 * the confirmation step said yes); otherwise the answer for the action to return, which
 * `<ConfirmationStep>` renders as the no-JS confirmation step re-posting the same fields:
 * `const step = requireConfirmation(formData, { message }); if (step) return step;`
 */
export function requireConfirmation(
  formData: FormData,
  options: { message: string; title?: string; confirmLabel?: string },
) {
  if (formData.get("confirmed") === "1") return null;
  const fields: Record<string, string> = {};
  for (const [name, value] of formData) {
    if (typeof value === "string" && name !== "confirmed") fields[name] = value;
  }
  const step: ConfirmationStepData = {
    confirmation: {
      title: options.title ?? "Bestätigung",
      message: options.message,
      confirmLabel: options.confirmLabel ?? "Bestätigen",
      fields,
    },
  };
  return data(step, { status: 200 });
}
