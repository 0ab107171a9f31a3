// Debian's Chromium as every browser run here starts it (Playwright's projects, Lighthouse):
// one list of flags, so the e2e runs and the Lighthouse figures see the same browser.
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

/** Playwright launch options; CHROMIUM_PATH overrides the binary. */
export const chromiumLaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? CHROMIUM_DEFAULT_PATH,
  args: chromiumArgs,
};

/**
 * The same browser with a fake microphone (a beep) and no permission prompt: every e2e test runs
 * in it (playwright.config.ts), the recorder's among them.
 */
export const chromiumWithMicrophone = {
  ...chromiumLaunchOptions,
  args: [
    ...chromiumArgs,
    "--use-fake-device-for-media-stream",
    "--use-fake-ui-for-media-stream",
    // Tests never reach the internet: gtag.js's host resolves to nothing, and the e2e fixtures
    // accept that one failed load (no request interception in the way of every other request).
    `--host-resolver-rules=MAP ${new URL(GTAG_ORIGIN).hostname} ~NOTFOUND`,
  ],
};
