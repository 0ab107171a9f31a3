import { useLocation } from "react-router";
import { useHydrated } from "~/components/ui/use-hydrated";
import type { PreparationField } from "~/lib/configuration";
import type { Stage } from "~/lib/pipeline";

export type AdminOption = { id: number; username: string; is_active: boolean };
export type DetailContext = {
  admins: AdminOption[];
  fields: PreparationField[];
  aiConfigured: boolean;
  /** Today's AI budget is used up: a missing summary follows tomorrow. */
  summaryHeld?: boolean;
  origin: string;
  /** TRANSCRIPTION_API_URL is set (ADR 272). */
  transcriptionConfigured?: boolean;
  /** SMTP_URL is set: messages to the lead can leave (ADR 273). */
  mailConfigured?: boolean;
  /** IMAP_URL is set: the lead's replies come back into the thread (ADR 285). */
  repliesConfigured?: boolean;
  /** The pipeline's stages and reasons (ADR 345). */
  pipeline: { stages: Stage[]; lostReasons: string[] };
  /** The loader's time: promises say "fällig heute" the same on the server and in the browser. */
  now: string;
  /** The signed-in admin (notes: only the author edits, ADR 350). */
  adminId?: number;
  /** The server's Berlin day (follow-up labels such as "heute" match after hydration). */
  today?: string;
};

/**
 * The page URL the forms post to (keeps the list state, the expanded row and the open request).
 * Without JS it ends in the row's anchor: the answer's redirect has no fragment, so the browser
 * keeps this one and lands on the row again instead of the top of the list.
 */
export function useActionUrl(requestId?: number, anchor?: string) {
  const location = useLocation();
  const hydrated = useHydrated();
  const url = `${location.pathname}${location.search}`;
  if (hydrated) return url;
  // `anchor`: a block of its own (e.g. the full-screen view's transcript or thread).
  if (anchor) return `${url}#${anchor}`;
  return requestId ? `${url}#request-${requestId}` : url;
}

/** Heading levels of a detail section's own headings (h2 in the row's tabs, h4 under an h3). */
export type HeadingLevel = 2 | 4;

export function shareLink(origin: string, id: number) {
  return `${origin}/admin/requests?requestId=${id}`;
}
