/**
 * Brings a result to where the visitor looks: scrolls its box into view (respecting the box's
 * `scroll-margin-top` below the sticky header; instant with reduced motion) and moves the focus to
 * it, so a screen reader reads it out and the keyboard continues from there.
 */
export function reveal(
  focusTarget: HTMLElement | null,
  options: { block?: ScrollLogicalPosition } = {},
) {
  if (!focusTarget) return;
  const box = focusTarget.closest<HTMLElement>("[data-reveal]") ?? focusTarget;
  const reduced = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
  box.scrollIntoView({ block: options.block ?? "start", behavior: reduced ? "auto" : "smooth" });
  focusTarget.focus({ preventScroll: true });
}
