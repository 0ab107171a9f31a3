import { removeLogo, saveLogo } from "~/server/branding/logo.server";
import { redirectWithToast } from "~/server/http/flash.server";
import { failureToast } from "~/server/platform/result.server";

/** The logo forms of the settings page (ADRs 268, 293): their own posts, beside the settings form. */
export const isLogoIntent = (form: FormData) =>
  form.get("intent") === "logo-upload" || form.get("intent") === "logo-remove";

/** Upload or removal, answered with a toast (the same functions as PUT/DELETE /api/admin/branding/logo). */
export async function handleLogoAction(form: FormData, back: string) {
  if (form.get("intent") === "logo-remove") {
    await removeLogo();
    return redirectWithToast(back, { type: "success", message: "Logo entfernt." });
  }
  const result = await saveLogo(form.get("logo"));
  if (!result.ok) return failureToast(back, result);
  return redirectWithToast(back, { type: "success", message: "Logo gespeichert." });
}
