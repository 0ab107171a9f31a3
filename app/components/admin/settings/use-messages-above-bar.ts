import { type RefObject, useEffect } from "react";

/** The messages of the settings form: field errors, and alerts and notes inside it. */
const MESSAGES = 'ul[id$="-error"], [role="alert"], [role="status"]';

/**
 * The sticky save bar sits over the bottom of the screen: a message that appears under a field
 * (Conform's check when the field is left, the browser's refusal) could land behind it, below the
 * field the admin just left. Whenever the form's messages change, one that overlaps the bar is
 * scrolled up above it — as far as its top stays in view (ADR 344). Without JS, messages come with
 * the server's answer, whose first refused field is focused and scrolled clear of the bar by its
 * `scroll-margin-bottom` (app.css).
 */
export function useMessagesAboveBar(
  formRef: RefObject<HTMLFormElement | null>,
  barRef: RefObject<HTMLElement | null>,
  /** Changes whenever the form's messages may have changed. */
  trigger: string,
) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: `trigger` is the only cause to look again
  useEffect(() => {
    const form = formRef.current;
    const bar = barRef.current;
    if (!form || !bar) return;
    const frame = requestAnimationFrame(() => {
      const barTop = bar.getBoundingClientRect().top;
      let needed = 0;
      for (const message of form.querySelectorAll<HTMLElement>(MESSAGES)) {
        if (bar.contains(message) || !message.textContent?.trim()) continue;
        const box = message.getBoundingClientRect();
        if (box.height === 0 || box.bottom <= barTop || box.top >= window.innerHeight) continue;
        // Up by the overlap (and a little air), but never past the message's own top.
        needed = Math.max(needed, Math.min(box.bottom - barTop + 8, box.top - 8));
      }
      if (needed > 0) window.scrollBy({ top: needed });
    });
    return () => cancelAnimationFrame(frame);
  }, [formRef, barRef, trigger]);
}
