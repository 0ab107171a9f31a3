// Debian's Chromium as every browser run here starts it (Playwright's projects, bench:altcha,
// Lighthouse): one list of flags, so the e2e runs and the Lighthouse figures see the same browser.
// Playwright's launches add the features below, which no page's figures depend on (ADR 364).
import { fileURLToPath } from "node:url";
import { GTAG_ORIGIN } from "../app/lib/analytics.ts";

export const CHROMIUM_DEFAULT_PATH = "/usr/bin/chromium";

export const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * The address bar's WebUI pop-ups: full Chromium preloads two renderer processes of them for every
 * browser context (`chrome://omnibox-popup.top-chrome/` and its AI variant), a third of what a
 * fresh context and its first page cost, for an address bar no test has (ADR 364).
 */
export const NO_OMNIBOX_POPUPS = [
  "WebUIOmniboxPopup",
  "WebUIOmniboxAimPopup",
  "WebUIOmniboxFullPopup",
];

/**
 * Playwright starts Chromium through this script: Chromium keeps only the last
 * `--disable-features=`, and Playwright passes a list of its own first. The script merges both
 * and runs `CHROMIUM_PATH`.
 */
export const CHROMIUM_FEATURES_WRAPPER = fileURLToPath(
  new URL("./chromium-features.sh", import.meta.url),
);

/** Playwright launch options; CHROMIUM_PATH overrides the binary. */
export const chromiumLaunchOptions = {
  executablePath: CHROMIUM_FEATURES_WRAPPER,
  env: { ...process.env, CHROMIUM_PATH: process.env.CHROMIUM_PATH ?? CHROMIUM_DEFAULT_PATH },
  args: [...chromiumArgs, `--disable-features=${NO_OMNIBOX_POPUPS.join(",")}`],
};

/**
 * The same browser with a fake microphone (a beep) and no permission prompt: every e2e test runs
 * in it (playwright.config.ts), the recorder's among them.
 */
export const chromiumWithMicrophone = {
  ...chromiumLaunchOptions,
  args: [
    ...chromiumLaunchOptions.args,
    "--use-fake-device-for-media-stream",
    "--use-fake-ui-for-media-stream",
    // Tests never reach the internet: gtag.js's host resolves to nothing, and the e2e fixtures
    // accept that one failed load (no request interception in the way of every other request).
    `--host-resolver-rules=MAP ${new URL(GTAG_ORIGIN).hostname} ~NOTFOUND`,
  ],
};
