import { defineConfig } from "@playwright/test";

const chromium = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
};

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
    launchOptions: chromium,
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
