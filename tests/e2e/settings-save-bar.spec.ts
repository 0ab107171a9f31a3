import type { Locator } from "@playwright/test";
import { expect, test } from "./fixtures";

// The settings page's sticky save bar on a phone (390 px) never covers what the admin works on: a
// refused number's field and German message, or a button the keyboard reaches.

const PHONE = { width: 390, height: 844 };

/** The element's centre is on screen and the topmost element there is the element (or inside it). */
async function expectUncovered(locator: Locator) {
  await expect(locator).toBeInViewport({ ratio: 1 });
  const hit = await locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return top !== null && (top === el || el.contains(top));
  });
  expect(hit, "nothing lies over it").toBe(true);
}

/** Puts `field` under the sticky save bar (its bottom 20 px above the window's lower edge). */
async function hideUnderSaveBar(field: Locator) {
  await field.evaluate((el) => {
    const r = el.getBoundingClientRect();
    window.scrollBy(0, r.bottom - (window.innerHeight - 20));
  });
}

test("settings at 390 px: a refused number's German message sits above the sticky save bar", async ({
  page,
  openSettings,
  javaScriptEnabled,
}, testInfo) => {
  await openSettings(page, { viewport: PHONE });
  const field = page.getByLabel("Max. Dateien pro Anfrage");
  const message = page.getByText("Bitte geben Sie eine ganze Zahl von 1 bis 10 ein.");
  const save = page.getByRole("button", { name: "Konfiguration speichern" });

  if (javaScriptEnabled) {
    // The browser's own check: the field is focused, its German message under it is visible.
    await field.fill("99");
    await hideUnderSaveBar(field);
    await save.click();
    await expect(field).toBeFocused();
    await expectUncovered(field);
    await expectUncovered(message);
    await page.screenshot({ path: testInfo.outputPath("settings-max-files-browser-390.png") });
  }

  // The server's check (the browser's bypassed).
  await field.evaluate((el) => el.removeAttribute("max"));
  await field.fill("99");
  await hideUnderSaveBar(field);
  await save.click();
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(field).toBeFocused();
  await expectUncovered(field);
  await expectUncovered(message);
  await page.screenshot({ path: testInfo.outputPath("settings-max-files-server-390.png") });
});

// On a phone the sticky save bar must not cover a button the keyboard reaches.
test("settings at 390 px: a focused button is not behind the sticky save bar", async ({
  page,
  openSettings,
}) => {
  await openSettings(page, { viewport: PHONE });
  const add = page.locator("#spam").getByRole("button", { name: "Eintrag hinzufügen" });
  await page.evaluate(() => window.scrollTo(0, 0));
  await add.focus();
  await expect(add).toBeFocused();
  await expect(add).toBeInViewport();
  const button = await add.boundingBox();
  const bar = await page.locator("[data-save-bar]").boundingBox();
  expect(button && bar && button.y + button.height).toBeLessThanOrEqual(bar?.y ?? 0);
});

// A save answers with a redirect back to the page: with JS the admin stays at the card they edited
// (the page is ~20,000 px long on a phone), not thrown back to the top (newcomer walk).
test("settings: after a save the edited card stays in view (with JS; without, the saved value is back)", async ({
  page,
  openSettings,
  javaScriptEnabled,
}) => {
  const section = await openSettings(page, { section: "spam", viewport: PHONE });
  const days = section.getByLabel("Anfragen in der Prüfung automatisch löschen nach (Tagen)");
  const before = await days.inputValue();
  const save = async (value: string) => {
    await days.fill(value);
    await days.scrollIntoViewIfNeeded();
    const scrolled = await page.evaluate(() => window.scrollY);
    expect(scrolled).toBeGreaterThan(1000);
    await page.getByRole("button", { name: "Konfiguration speichern" }).click();
    await expect(page.getByText("Konfiguration erfolgreich gespeichert!")).toBeVisible({
      timeout: 30_000,
    });
    await expect(days).toHaveValue(value);
    // With JS the page stays where it was; without JS the browser loads the page anew (at its top).
    if (javaScriptEnabled) {
      await expect(days).toBeInViewport();
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(scrolled - 200);
    }
  };
  await save(String(Number(before) + 1));
  await page.screenshot({ path: test.info().outputPath("settings-saved-in-place-390.png") });
  await save(before);
});

// On a wide screen the toasts sit in the bottom-left corner: a refused field the page focuses after
// a save that worked must not lie under the toasts (newcomer walk: the old "gespeichert" toast and
// the new refusal stacked over the field). The refusal ends the success before it.
test("settings at 1280 px: a field refused right after a save is not under the toasts", async ({
  page,
  openSettings,
}, testInfo) => {
  await openSettings(page, { viewport: { width: 1280, height: 800 } });
  const field = page.getByLabel("Datenschutzerklärung (Adresse)");
  const save = page.getByRole("button", { name: "Konfiguration speichern" });
  await field.fill("https://example.com/datenschutz");
  await save.click();
  await expect(page.getByText("Konfiguration erfolgreich gespeichert!")).toBeVisible({
    timeout: 30_000,
  });
  await field.fill("ftp://example.com/datenschutz");
  // The field at the bottom of the window, where the toasts are.
  await field.evaluate((el) => {
    const r = el.getBoundingClientRect();
    window.scrollBy(0, r.bottom - (window.innerHeight - 20));
  });
  await save.click();
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(field).toBeFocused();
  await expect(page.getByText("Konfiguration erfolgreich gespeichert!")).toHaveCount(0);
  await expectUncovered(field);
  await page.screenshot({ path: testInfo.outputPath("settings-refused-after-save-1280.png") });
});
