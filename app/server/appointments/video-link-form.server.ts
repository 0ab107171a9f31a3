import { redirectWithToast } from "../http/flash.server";
import { failureToast } from "../platform/result.server";
import { setVideoLink } from "./video-link.server";

/** The card's video-link form on Termine (no JS needed): the same rule as the PATCH call. */
export async function handleVideoLinkForm(id: number, form: FormData, back: string) {
  const result = await setVideoLink(id, String(form.get("videoUrl") ?? ""));
  if (!result.ok) return failureToast(back, result);
  const message = !result.changed
    ? "Der Videolink ist unverändert."
    : result.mailed
      ? "Videolink gespeichert – die aktualisierte Einladung geht per E-Mail raus."
      : "Videolink gespeichert.";
  return redirectWithToast(back, { type: result.changed ? "success" : "info", message });
}
