import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

/**
 * axe-core over the page as it is now: every e2e audit starts here, then chains `.include()`,
 * `.exclude()` or `.withRules()` and calls `.analyze()`.
 *
 * The builder's default run (`axe.runPartial` in each frame, `axe.finishRun` in a new blank page of
 * the context) exists for frames of other origins. A page with no frame at all, which is every page
 * the app renders today, gets the same rules over the same document from `axe.run` inside the page
 * (the builder's "legacy" mode) at about half the cost: no extra page is opened and filled with
 * axe's 600 KB script. Any frame (even one still at about:blank, which may yet navigate elsewhere,
 * or a sandboxed srcdoc with an opaque origin) keeps the default run, so a frame is never skipped.
 * Only violations are collected: the tests assert nothing else (ADR 362).
 */
export function axeOn(page: Page): AxeBuilder {
  return new AxeBuilder({ page })
    .options({ resultTypes: ["violations"] })
    .setLegacyMode(page.frames().length === 1);
}
