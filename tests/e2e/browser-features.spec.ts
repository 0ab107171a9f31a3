import { type Browser, chromium, expect, test } from "@playwright/test";
import { CHROMIUM_DEFAULT_PATH, NO_OMNIBOX_POPUPS } from "../../scripts/chromium.ts";

// The browser every e2e test runs in (scripts/chromium.ts, ADR 364): Chromium keeps only the last
// `--disable-features=` it is given, so the project's list must not replace Playwright's own.
// Tagged @static: it checks the browser, which no page's script changes, so it runs once.

/** The features the browser runs with disabled, as Chromium itself reports them. */
async function disabledFeatures(browser: Browser): Promise<string[]> {
  // chrome://version fills in its fields by script, whatever the project's JS setting.
  const context = await browser.newContext({ javaScriptEnabled: true });
  try {
    const page = await context.newPage();
    await page.goto("chrome://version");
    const encoded = await page.locator("#variations-cmd").getAttribute("data-value");
    const variations = JSON.parse(Buffer.from(encoded ?? "", "base64").toString("utf8")) as {
      "disable-features"?: string;
    };
    return (variations["disable-features"] ?? "").split(",").filter(Boolean);
  } finally {
    await context.close();
  }
}

test("the e2e browser keeps Playwright's disabled features beside its own and opens no address-bar pop-ups @static", async ({
  browser,
}) => {
  // Playwright's own list, from the same Chromium started without the project's options (a
  // launch inside a test starts from the config's launch options: both are given here).
  const plain = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? CHROMIUM_DEFAULT_PATH,
    args: [],
  });
  let playwrights: string[];
  try {
    playwrights = await disabledFeatures(plain);
  } finally {
    await plain.close();
  }
  expect(playwrights.length).toBeGreaterThan(0);

  const ours = await disabledFeatures(browser);
  expect(ours).toEqual(expect.arrayContaining([...playwrights, ...NO_OMNIBOX_POPUPS]));

  // A fresh context with a page, as every test has: no renderer for the omnibox's WebUI beside it.
  const context = await browser.newContext();
  try {
    await context.newPage();
    const session = await browser.newBrowserCDPSession();
    const { targetInfos } = await session.send("Target.getTargets");
    expect(targetInfos.map((target) => target.url)).not.toContainEqual(
      expect.stringContaining("omnibox"),
    );
    await session.detach();
  } finally {
    await context.close();
  }
});
