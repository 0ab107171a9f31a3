import { defineConfig } from "@playwright/test";
import { chromiumWithMicrophone } from "./scripts/chromium.ts";

export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "**/*.spec.ts",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // Each worker starts its own app server, database and ports (tests/e2e/fixtures.ts), so specs
  // never share configuration or data. Tests (not whole files) are spread over the workers, so
  // neither waits idle at the end while the other finishes a long file (ADR 331).
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  reporter: [["list"]],
  use: {
    locale: "de-DE",
    timezoneId: "Europe/Berlin",
    // One browser for every spec, with the recorder's fake microphone: launch options are a
    // worker's, so a spec with other ones would get a worker (and an app server) of its own.
    launchOptions: chromiumWithMicrophone,
    trace: "off",
  },
  projects: [
    // A test that only makes sense in one mode says so with a tag (never a run-time skip).
    // @static: the test follows no flow and asserts only what the server renders (a layout, a
    // text, an error page, an HTTP answer) where the page's JavaScript cannot change it, so it runs
    // once, without JavaScript (ADR 331); also a check of the browser itself (browser-features,
    // ADR 364), which no page's script changes. Every flow still runs in both projects.
    {
      name: "js-on",
      use: { javaScriptEnabled: true },
      grepInvert: /@no-js-only|@static/,
    },
    {
      name: "js-off",
      use: { javaScriptEnabled: false },
      grepInvert: /@js-only/,
      // axe runs as a script inside the page, which the JS-off project cannot host; the markup it
      // checks is the same server-rendered HTML in both projects.
      testIgnore: /a11y-[\w-]+\.spec\.ts$/,
    },
  ],
});
