// The pipeline's board (ADR 347), with and without JavaScript, at 390 × 844 and 1280 × 800: cards
// move by drag and drop and by keyboard (JS) and by the card's select (no JS); "Verloren" asks for a
// reason; the list's switch leads there; axe-clean in light and dark.

import type { Locator, Page } from "@playwright/test";
import { loginAs, signIn } from "./auth";
import { axeOn } from "./axe";
import { expect, test } from "./fixtures";
import { waitForHydration } from "./hydration";
import { stageOf } from "./seed";
import { switchToDarkTheme } from "./theme";

test.describe.configure({ timeout: 180_000 });

const SIZES = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 800 },
] as const;

const column = (page: Page, stage: string) => page.locator(`[data-stage-column="${stage}"]`);
const card = (page: Page, id: number) => page.locator(`[data-card="${id}"]`);
const toast = (page: Page, text: string | RegExp) =>
  page.locator('[aria-live="polite"]').getByText(text);

async function axeClean(page: Page, label: string) {
  const results = await axeOn(page).analyze();
  expect(results.violations.map((v) => `${label}: ${v.id} ${v.nodes[0]?.target}`)).toEqual([]);
}

/** Without JS: "Phase ändern" on the card, the stage, "Phase speichern". */
async function moveWithSelect(target: Locator, stage: string) {
  await target.locator("summary", { hasText: "Phase ändern" }).click();
  await target
    .getByRole("combobox", { name: /Neue Phase für Anfrage/ })
    .selectOption({ label: stage });
  await target.getByRole("button", { name: "Phase speichern" }).click();
}

for (const size of SIZES) {
  test(`cards move on the board (${size.name})`, async ({
    page,
    javaScriptEnabled,
    seed,
  }, testInfo) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    const m = Math.random().toString(16).slice(2, 8);
    const first = await seed.request({
      name: `Erika Erst ${m}`,
      companyDescription: `Bäckerei Erst ${m} mit acht Filialen im Umland von Leipzig und einem Lieferdienst`,
    });
    const second = await seed.request({ name: `Zora Zweit ${m}` });
    await loginAs(page, await seed.admin());
    // From the list by the switch ("Liste | Board").
    await page.goto("/admin/requests");
    await page
      .getByRole("navigation", { name: "Darstellung" })
      .getByRole("link", { name: "Board" })
      .click();
    await expect(page).toHaveURL(/\/admin\/requests\/board$/);
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Pipeline");
    if (javaScriptEnabled) await waitForHydration(page);
    const a = card(page, first);
    await expect(column(page, "new").locator(`[data-card="${first}"]`)).toHaveCount(1);
    // The card: name, the company's first 60 characters, age, the first contact's promise.
    await expect(a.locator("[data-card-company]")).toHaveText(/^Bäckerei Erst .{0,50}$/);
    await expect(a).toContainText("heute eingegangen");
    await expect(a.locator('[data-promise="contact"]')).toContainText(/Erstkontakt fällig/);

    if (!javaScriptEnabled) {
      await moveWithSelect(a, "Kontaktiert");
      await expect(toast(page, /ist jetzt in „Kontaktiert“/)).toBeVisible();
      await expect(column(page, "contacted").locator(`[data-card="${first}"]`)).toHaveCount(1);
      // The page opens at the moved card in its new column (the redirect's #request-N).
      await expect(card(page, first)).toBeInViewport();
      expect(stageOf(first)).toBe("contacted");
      // Verloren asks for a reason first (the page's answer, its select focused).
      await moveWithSelect(card(page, second), "Verloren");
      const step = page.locator(`[data-reason-step="${second}"]`);
      await expect(step).toBeInViewport();
      await expect(step.getByLabel("Grund für „Verloren“")).toBeFocused();
      // A question, not an error (no alert): the select is described by it.
      await expect(step.getByRole("alert")).toHaveCount(0);
      await expect(step.getByLabel("Grund für „Verloren“")).toHaveAccessibleDescription(
        "Bitte wählen Sie einen Grund für „Verloren“.",
      );
      await page.screenshot({ path: testInfo.outputPath(`board-reason-${size.name}.png`) });
      await step.getByLabel("Grund für „Verloren“").selectOption("Kein Budget");
      await step.getByRole("button", { name: "Nach „Verloren“ verschieben" }).click();
      await expect(toast(page, /ist jetzt in „Verloren“/)).toBeVisible();
      expect(stageOf(second)).toBe("lost");
    } else {
      if (size.name === "desktop") {
        // Drag and drop with the mouse, from the card's handle: pressed, moved sideways into the
        // next column at the card's height (the columns are as tall as the board's row; aiming at
        // a column's centre would scroll the page in the middle of the drag when the card sits low
        // in a long column), twice (the first move starts the drag, the second is a dragover on
        // the target), let go.
        const target = column(page, "contacted");
        const handle = a.locator("[data-drag-handle]");
        await handle.hover();
        const from = await handle.boundingBox();
        const to = await target.boundingBox();
        if (!from || !to) throw new Error("the card's handle or the target column is not rendered");
        const y = Math.min(from.y + from.height / 2, to.y + to.height - 8);
        await page.mouse.down();
        await page.mouse.move(to.x + 24, y);
        await page.mouse.move(to.x + 48, y);
        await page.mouse.up();
        await expect(column(page, "contacted").locator(`[data-card="${first}"]`)).toHaveCount(1);
        await expect.poll(() => stageOf(first)).toBe("contacted");
        await expect(toast(page, /ist jetzt in „Kontaktiert“/)).toBeVisible();
      } else {
        // On a phone: the keyboard of a connected keyboard or a screen reader (below), and the select.
        await a.locator("summary", { hasText: "Phase ändern" }).click();
        await a
          .getByRole("combobox", { name: /Neue Phase für Anfrage/ })
          .selectOption({ label: "Kontaktiert" });
        await expect.poll(() => stageOf(first)).toBe("contacted");
        await expect(toast(page, /ist jetzt in „Kontaktiert“/)).toBeVisible();
        // The card is drawn anew in its new column: its handle has the focus, the card is in view.
        await expect(card(page, first).locator("[data-drag-handle]")).toBeFocused();
        await expect(card(page, first)).toBeInViewport({ ratio: 1 });
      }
      // The keyboard: Space picks the card up, → → chooses "Demo gebucht", Space puts it down.
      const handle = card(page, second).locator("[data-drag-handle]");
      await handle.focus();
      await page.keyboard.press("Space");
      const status = page.locator("[data-board-status]");
      await expect(status).toContainText("aufgenommen");
      await page.keyboard.press("ArrowRight");
      await page.keyboard.press("ArrowRight");
      await expect(status).toContainText("„Demo gebucht“ (Phase 3 von 7)");
      await page.keyboard.press("Space");
      await expect(column(page, "demo").locator(`[data-card="${second}"]`)).toHaveCount(1);
      // The result is the page's toast (announced once, by the toast region).
      await expect(toast(page, /ist jetzt in „Demo gebucht“/)).toBeVisible();
      await expect(card(page, second).locator("[data-drag-handle]")).toBeFocused();
      await expect(card(page, second)).toBeInViewport();
      expect(stageOf(second)).toBe("demo");
      // To "Verloren" (→ × 4): the reason dialog, its select focused.
      await page.keyboard.press("Enter");
      for (let i = 0; i < 4; i++) await page.keyboard.press("ArrowRight");
      await page.keyboard.press("Enter");
      const dialog = page.getByRole("dialog", { name: "Grund für „Verloren“" });
      await expect(dialog).toBeVisible();
      await expect(dialog.getByRole("combobox")).toBeFocused();
      await page.screenshot({ path: testInfo.outputPath(`board-reason-${size.name}.png`) });
      await dialog.getByRole("combobox").selectOption("Kein Budget");
      await dialog.getByRole("button", { name: "Verschieben" }).click();
      await expect(column(page, "lost").locator(`[data-card="${second}"]`)).toHaveCount(1);
      await expect.poll(() => stageOf(second)).toBe("lost");
    }
    // The count of each column follows.
    await expect(column(page, "contacted").locator("[data-stage-count]")).toHaveText(/\(\d+\)/);
    await column(page, "contacted").scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath(`board-${size.name}.png`), fullPage: true });
    if (javaScriptEnabled) await axeClean(page, `board ${size.name}`);
  });
}

test("at 390 px the stage picker jumps to a column; the board is axe-clean in light and dark", async ({
  page,
  javaScriptEnabled,
  seed,
}, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const id = await seed.request({ name: "Pia Picker" });
  await signIn(page, await seed.admin(), { to: "/admin/requests/board" });
  await page
    .getByRole("navigation", { name: "Phasen" })
    .getByRole("link", { name: /^Gewonnen/ })
    .click();
  await expect(column(page, "won")).toBeInViewport();
  await expect(column(page, "new")).not.toBeInViewport();
  // The list rows show and change the stage too.
  await page.goto("/admin/requests");
  const row = page.locator(`[data-request-id="${id}"]`);
  await expect(row.getByRole("combobox", { name: `Phase von Anfrage ${id}` })).toHaveValue("new");
  // axe runs as a script in the page: with JS only (the markup is the same without).
  if (javaScriptEnabled) {
    await page.goto("/admin/requests/board");
    await waitForHydration(page);
    await axeClean(page, "board light");
    await switchToDarkTheme(page);
    await page.goto("/admin/requests/board");
    await expect(page.locator("html")).toHaveClass(/dark/);
    await axeClean(page, "board dark");
    await page.screenshot({ path: testInfo.outputPath("board-dark-390.png"), fullPage: true });
  }
});
