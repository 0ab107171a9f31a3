import { defineConfig } from "@playwright/test";
import { chromiumLaunchOptions } from "./scripts/chromium.ts";

export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "**/*.spec.ts",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  // Each worker starts its own app server, database and ports (tests/e2e/fixtures.ts), so specs
  // never share configuration or data; files are spread over the workers.
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  reporter: [["list"]],
  use: {
    locale: "de-DE",
    timezoneId: "Europe/Berlin",
    launchOptions: chromiumLaunchOptions,
    trace: "off",
  },
  projects: [
    // A test that only makes sense in one mode says so with a tag (never a run-time skip).
    { name: "js-on", use: { javaScriptEnabled: true }, grepInvert: /@no-js-only/ },
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
