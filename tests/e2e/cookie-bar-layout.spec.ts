import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { waitForHydration } from "./hydration";

// JS on and off: the cookie bar's "Details", its opened panel and the two buttons
// stack cleanly on phones (320–430 px) and sit side by side at 1280 px; nothing is clipped.

const SIZES = [
  { width: 320, height: 640 },
  { width: 390, height: 844 },
  { width: 430, height: 932 },
  { width: 1280, height: 800 },
];

/** The element shows all of its content (nothing cut off or scrolled away inside it). */
async function notClipped(locator: Locator, what: string) {
  const { scroll, client } = await locator.evaluate((el) => ({
    scroll: el.scrollWidth,
    client: el.clientWidth,
  }));
  expect(scroll, `${what}: content ${scroll} px in ${client} px`).toBeLessThanOrEqual(client);
}

async function insideViewport(page: Page, locator: Locator, what: string) {
  const box = await locator.boundingBox();
  const viewport = page.viewportSize();
  expect(box && viewport, what).toBeTruthy();
  if (!box || !viewport) return;
  expect(box.x, `${what} left edge`).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, `${what} right edge`).toBeLessThanOrEqual(viewport.width);
  expect(box.y + box.height, `${what} bottom edge`).toBeLessThanOrEqual(viewport.height);
}

for (const size of SIZES) {
  test(`cookie bar at ${size.width}×${size.height}: buttons and details never clipped`, async ({
    page,
    javaScriptEnabled,
  }) => {
    await page.setViewportSize(size);
    await page.goto("/");
    if (javaScriptEnabled) await waitForHydration(page);
    const bar = page.getByRole("region", { name: "Cookie-Einstellungen" });
    await expect(bar).toBeInViewport();
    const details = bar.getByText("Details", { exact: true });
    const necessary = bar.getByRole("button", { name: "Nur notwendige" });
    const all = bar.getByRole("button", { name: "Alle akzeptieren" });
    for (const [control, what] of [
      [details, "Details"],
      [necessary, "Nur notwendige"],
      [all, "Alle akzeptieren"],
    ] as const) {
      await expect(control).toBeInViewport({ ratio: 1 });
      await notClipped(control, what);
      await insideViewport(page, control, what);
    }
    const summaryBox = await details.boundingBox();
    const necessaryBox = await necessary.boundingBox();
    const allBox = await all.boundingBox();
    if (!summaryBox || !necessaryBox || !allBox) throw new Error("no boxes");
    // "Details" is wide enough for its word (the bug: "Deta" under the buttons).
    expect(summaryBox.width).toBeGreaterThan(40);
    if (size.width < 640) {
      // Stacked: "Details" on its own line above the buttons, which share one row in halves.
      expect(summaryBox.y + summaryBox.height).toBeLessThanOrEqual(necessaryBox.y + 1);
      expect(Math.abs(necessaryBox.y - allBox.y)).toBeLessThan(2);
      expect(necessaryBox.width).toBeGreaterThan(size.width * 0.35);
    } else {
      // Side by side: "Details" left, the buttons right on the same row.
      expect(
        Math.abs(summaryBox.y + summaryBox.height / 2 - (allBox.y + allBox.height / 2)),
      ).toBeLessThan(12);
      expect(summaryBox.x + summaryBox.width).toBeLessThan(necessaryBox.x);
    }
    await page.screenshot({
      path: test.info().outputPath(`cookie-bar-${size.width}-closed.png`),
    });

    // The opened panel spans the bar (the bug: a ~150 px column).
    await details.click();
    const save = bar.getByRole("button", { name: "Auswahl speichern" });
    await expect(save).toBeInViewport({ ratio: 1 });
    await notClipped(save, "Auswahl speichern");
    const analytics = bar.getByRole("checkbox", { name: /Analyse/ });
    await expect(analytics).toBeInViewport();
    const panel = bar.locator("details > div");
    const panelBox = await panel.boundingBox();
    const content = Math.min(size.width, 1152) - (size.width < 640 ? 32 : 48);
    expect(panelBox?.width ?? 0, "opened panel width").toBeGreaterThan(content - 4);
    await insideViewport(page, panel, "opened panel");
    for (const [control, what] of [
      [necessary, "Nur notwendige"],
      [all, "Alle akzeptieren"],
    ] as const) {
      await expect(control).toBeInViewport({ ratio: 1 });
      await notClipped(control, what);
    }
    await page.screenshot({ path: test.info().outputPath(`cookie-bar-${size.width}-open.png`) });

    // The choice from the opened panel still works (natively without JS).
    await analytics.check();
    await save.click();
    await expect(bar).toHaveCount(0);
  });
}
