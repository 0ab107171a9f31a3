import { expect, test } from "./fixtures";
import { waitForHydration } from "./hydration";

// On a 390 px phone the row menus ("Zuweisen", "Schnellaktionen") open inside the screen: their
// panels used to hang from the button's left edge and ran off the right side.
test.use({ viewport: { width: 390, height: 844 } });

test("row menus open within a phone's screen", async ({
  page,
  loginAsNew,
  javaScriptEnabled,
  seed,
}) => {
  const m = Math.random().toString(16).slice(2, 10);
  await seed.request({ name: `Handy ${m}` });
  await loginAsNew(page);
  await page.goto(`/admin/requests?q=${m}`);
  if (javaScriptEnabled) await waitForHydration(page);
  const row = page.getByTestId("request-row").filter({ hasText: `Handy ${m}` });
  for (const summary of [/^Zuweisen/, /^Schnellaktionen/]) {
    const menu = row
      .locator("details")
      .filter({ has: page.locator("summary", { hasText: summary }) });
    const closedWidth = (await menu.locator("summary").boundingBox())?.width;
    await menu.locator("summary").click();
    // The button keeps its width when its panel opens below it.
    expect((await menu.locator("summary").boundingBox())?.width).toBe(closedWidth);
    const panel = menu.locator(".menu-panel");
    await expect(panel).toBeVisible();
    const box = await panel.boundingBox();
    expect(box).not.toBeNull();
    expect(box?.x).toBeGreaterThanOrEqual(0);
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(390);
    await expect(
      panel.getByRole("combobox").or(panel.getByRole("button")).first(),
    ).toBeInViewport();
    await menu.locator("summary").click();
  }
});
