import { redirectWithToast } from "../http/flash.server";
import { SchedulingError } from "./scheduling/types";
import { setVideoLink } from "./video-link.server";

/** The card's video-link form on Termine (no JS needed): the same rule as the PATCH call. */
export async function handleVideoLinkForm(id: number, form: FormData, back: string) {
  try {
    const { changed, mailed } = await setVideoLink(id, String(form.get("videoUrl") ?? ""));
    const message = !changed
      ? "Der Videolink ist unverändert."
      : mailed
        ? "Videolink gespeichert – die aktualisierte Einladung geht per E-Mail raus."
        : "Videolink gespeichert.";
    return redirectWithToast(back, { type: changed ? "success" : "info", message });
  } catch (error) {
    if (!(error instanceof SchedulingError)) throw error;
    return redirectWithToast(back, { type: "error", message: error.message });
  }
}
