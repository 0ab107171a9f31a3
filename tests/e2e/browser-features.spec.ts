import { type Browser, type CDPSession, chromium } from "@playwright/test";
import { CHROMIUM_DEFAULT_PATH, NO_OMNIBOX_POPUPS } from "../../scripts/chromium.ts";
import { expect, test } from "./fixtures";

// The browser every e2e test runs in (scripts/chromium.ts, ADR 364): Chromium keeps only the last
// `--disable-features=` it is given, so the project's list must not replace Playwright's own.
// Tagged @static so it runs once: it checks the browser, which no page's script changes.

/** The features the browser runs with disabled, as Chromium itself reports them. */
async function disabledFeatures(browser: Browser): Promise<string[]> {
  // chrome://version fills in its fields by script, whatever the project's JS setting.
  const context = await browser.newContext({ javaScriptEnabled: true });
  try {
    const page = await context.newPage();
    await page.goto("chrome://version");
    const field = page.locator("#variations-cmd");
    // Set after the page has asked the browser for it, which may be after the load event.
    await expect(field).toHaveAttribute("data-value", /\S/);
    const encoded = (await field.getAttribute("data-value")) ?? "";
    const variations = JSON.parse(Buffer.from(encoded, "base64").toString("utf8")) as {
      "disable-features"?: string;
    };
    return (variations["disable-features"] ?? "").split(",").filter(Boolean);
  } finally {
    await context.close();
  }
}

/** The URLs of the browser's targets (pages, and the browser's own WebUI renderers). */
async function targetUrls(session: CDPSession): Promise<string[]> {
  const { targetInfos } = await session.send("Target.getTargets");
  return targetInfos.map((target) => target.url);
}

const omnibox = expect.stringContaining("omnibox-popup");

test("the e2e browser keeps Playwright's disabled features beside its own and opens no address-bar pop-ups @static", async ({
  browser,
}) => {
  // The same Chromium started with Playwright's options only (a launch inside a test starts from
  // the config's launch options: both are given here). Its list is Playwright's own, and a fresh
  // context with a page has the pop-ups beside it at once: the check below can see them.
  const plain = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? CHROMIUM_DEFAULT_PATH,
    args: [],
  });
  let playwrights: string[];
  try {
    playwrights = await disabledFeatures(plain);
    const context = await plain.newContext();
    await context.newPage();
    const session = await plain.newBrowserCDPSession();
    expect(await targetUrls(session)).toContainEqual(omnibox);
  } finally {
    await plain.close();
  }
  expect(playwrights.length).toBeGreaterThan(0);

  const ours = await disabledFeatures(browser);
  expect(ours).toEqual(expect.arrayContaining([...playwrights, ...NO_OMNIBOX_POPUPS]));

  // A fresh context with a page, as every test has: no pop-up beside it.
  const context = await browser.newContext();
  const session = await browser.newBrowserCDPSession();
  try {
    await context.newPage();
    expect(await targetUrls(session)).not.toContainEqual(omnibox);
  } finally {
    await session.detach();
    await context.close();
  }
});
