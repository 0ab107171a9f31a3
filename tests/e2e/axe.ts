import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

/**
 * axe-core over the page as it is now: every e2e audit starts here, then chains `.include()`,
 * `.exclude()` or `.withRules()` and calls `.analyze()`.
 *
 * The builder's default run (`axe.runPartial` in each frame, `axe.finishRun` in a new blank page of
 * the context) exists for frames of other origins. On a page without one, `axe.run` inside the
 * page (the builder's "legacy" mode) checks the same frames with the same rules at about half the
 * cost (no extra page, axe's 600 KB script parsed once instead of twice). So the cheaper run is
 * taken only where it sees everything, and the default one wherever a frame of another origin is
 * on the page (the embedding site of embed.spec.ts). Only violations are collected: the tests
 * assert nothing else (ADR 362).
 */
export function axeOn(page: Page): AxeBuilder {
  const origin = new URL(page.url()).origin;
  const otherOrigin = page.frames().some((frame) => {
    const url = frame.url();
    if (url === "" || url === "about:blank" || url === "about:srcdoc") return false;
    return new URL(url).origin !== origin;
  });
  return new AxeBuilder({ page })
    .options({ resultTypes: ["violations"] })
    .setLegacyMode(!otherOrigin);
}
