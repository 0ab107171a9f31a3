import type { Page } from "@playwright/test";
import { axeOn } from "./axe";
import { expect, test } from "./fixtures";

// ADR 244: the settings' lists are Conform field lists. With JS Conform changes them in
// place; without JS each button posts its intent and the server shows the changed list again.
// Nothing is stored before "Konfiguration speichern".

const PHONE = { width: 390, height: 844 };
// axe over the whole settings page is slow on a loaded two-core machine (as in a11y-admin).
test.describe.configure({ timeout: 180_000 });

/** The saved preparation fields' names, in their order on the page. */
const savedNames = (page: Page) =>
  page.locator("#preparationFields li p.font-mono").allTextContents();

test("settings: add, reorder and remove preparation fields, then save (390 px)", async ({
  page,
  openSettings,
  javaScriptEnabled,
}, testInfo) => {
  await openSettings(page, { viewport: PHONE });
  expect(await savedNames(page)).toEqual([
    "zielgruppe",
    "kernfunktionen",
    "technologie",
    "offeneFragen",
  ]);

  // Add: a new row whose name is typed, focused and on screen.
  await page.getByRole("button", { name: "Feld hinzufügen" }).click();
  const name = page.getByLabel("Name (nur Buchstaben und Ziffern)");
  await expect(name).toBeFocused();
  await expect(name).toBeInViewport();
  await name.fill("Budget Rahmen");
  await page.getByLabel("Label", { exact: true }).last().fill("Budgetrahmen");
  await page.getByLabel("Platzhalter (optional)").fill("Wie viel darf es kosten?");

  // Reorder: "Technologie" one up; focus stays on the moved row's button.
  await page.getByRole("button", { name: "Feld Technologie nach oben" }).click();
  const up = page.getByRole("button", { name: "Feld Technologie nach oben" });
  await expect(up).toBeFocused();
  await expect(up).toBeInViewport();
  // The typed new row survived the move (without JS: through the server's answer).
  await expect(name).toHaveValue("Budget Rahmen");
  if (!javaScriptEnabled) {
    await expect(page.getByText("Feld verschoben – zum Übernehmen bitte speichern.")).toBeVisible();
  }
  expect(await savedNames(page)).toEqual([
    "zielgruppe",
    "technologie",
    "kernfunktionen",
    "offeneFragen",
  ]);

  // Remove "Zielgruppe" (confirmed with JS); focus goes to "Feld hinzufügen".
  await page.getByRole("button", { name: "Feld Zielgruppe löschen" }).click();
  if (javaScriptEnabled) {
    const dialog = page.getByRole("alertdialog");
    await expect(dialog).toContainText("Möchten Sie dieses Feld wirklich löschen?");
    await dialog.getByRole("button", { name: "Bestätigen" }).click();
  }
  await expect(page.getByRole("button", { name: "Feld Zielgruppe löschen" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Feld hinzufügen" })).toBeFocused();
  if (javaScriptEnabled) await expect(page.getByText("Ungespeicherte Änderungen")).toBeVisible();

  // The page with the changed lists is axe-clean (axe needs the page's scripts: JS project).
  if (javaScriptEnabled) {
    const results = await axeOn(page).analyze();
    expect(
      results.violations.map((v) => `${v.id} (${v.nodes.length}) ${v.nodes[0]?.target}`),
    ).toEqual([]);
  }
  await page.screenshot({
    path: testInfo.outputPath("settings-lists-draft-390.png"),
    fullPage: true,
  });

  // Nothing is stored before this (a loaded machine may take a while to save).
  await page.getByRole("button", { name: "Konfiguration speichern" }).click();
  await expect(page.getByText("Konfiguration erfolgreich gespeichert!")).toBeVisible({
    timeout: 30_000,
  });
  await page.goto("/admin/settings");
  expect(await savedNames(page)).toEqual([
    "technologie",
    "kernfunktionen",
    "offeneFragen",
    "BudgetRahmen",
  ]);
  await expect(page.getByRole("textbox", { name: "Platzhalter" }).last()).toHaveValue(
    "Wie viel darf es kosten?",
  );
  await page.screenshot({
    path: testInfo.outputPath("settings-lists-saved-390.png"),
    fullPage: true,
  });
});

test("settings: a new preparation field without name or label is refused at its row", async ({
  page,
  openSettings,
}) => {
  await openSettings(page, { viewport: PHONE });
  await page.getByRole("button", { name: "Feld hinzufügen" }).click();
  const name = page.getByLabel("Name (nur Buchstaben und Ziffern)");
  await name.fill("zielgruppe");
  const save = page.getByRole("button", { name: "Konfiguration speichern" });
  const toast = page.locator("[data-toast=error]", {
    hasText: "Die Konfiguration wurde nicht gespeichert.",
  });
  // No label: refused at the label, which is focused.
  await save.click();
  await expect(toast).toBeVisible();
  const label = page.getByLabel("Label", { exact: true }).last();
  await expect(label).toHaveAttribute("aria-invalid", "true");
  await expect(label).toHaveAccessibleDescription(
    "Bitte füllen Sie mindestens Name und Label aus!",
  );
  await expect(label).toBeFocused();
  await expect(label).toBeInViewport();
  // A name that is taken: refused at the name.
  await label.fill("Noch eine Zielgruppe");
  await save.click();
  await expect(name).toHaveAttribute("aria-invalid", "true");
  await expect(name).toHaveAccessibleDescription("Ein Feld mit diesem Namen gibt es bereits.");
  await expect(name).toBeFocused();
  await expect(name).toBeInViewport();
});

// A row moved to the top keeps the focus on its (enabled) other button.
test("preparation fields: moved to the top, the row's 'nach unten' takes the focus", async ({
  page,
  openSettings,
  javaScriptEnabled,
}) => {
  await openSettings(page, { viewport: PHONE });
  // "Kernfunktionen" is the second row (after "Zielgruppe"): one step up is the top.
  const up = page.getByRole("button", { name: "Feld Kernfunktionen nach oben" });
  await expect(page.locator("#preparation-1-up")).toHaveAccessibleName(
    "Feld Kernfunktionen nach oben",
  );
  await up.click();
  const down = page.getByRole("button", { name: "Feld Kernfunktionen nach unten" });
  await expect(down).toBeFocused();
  await expect(down).toBeInViewport();
  await expect(page.getByRole("button", { name: "Feld Kernfunktionen nach oben" })).toBeDisabled();
  if (!javaScriptEnabled) {
    await expect(page.getByText("Feld verschoben – zum Übernehmen bitte speichern.")).toBeVisible();
  }
});
