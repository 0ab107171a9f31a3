// The list row's status and stage selects (ADR 359), with and without JavaScript, at 390 × 844 and
// 1280 × 800: each select shows its whole value (none is cut to "In Bearbeit…"), and a move to a
// stage that asks for a reason ("Verloren") lands on the reason select, focused and on screen —
// in the row and in the full-screen view.
import type { Locator, Page } from "@playwright/test";
import { loginAs, signIn } from "./auth";
import { expect, test } from "./fixtures";
import { waitForHydration } from "./hydration";
import { stageOf } from "./seed";

test.describe.configure({ timeout: 180_000 });

const SIZES = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 800 },
] as const;

const marker = () => Math.random().toString(16).slice(2, 10);
const row = (page: Page, id: number) => page.locator(`[data-request-id="${id}"]`);

/**
 * The select's width and the width its chosen option needs whole: a copy of the select with only
 * that option, as wide as its content (text, padding, the arrow), measured beside it and removed.
 */
function widths(select: Locator) {
  return select.evaluate((el: HTMLSelectElement) => {
    const option = el.selectedOptions[0];
    const probe = el.cloneNode(false) as HTMLSelectElement;
    probe.removeAttribute("id");
    probe.removeAttribute("name");
    probe.append(option.cloneNode(true));
    Object.assign(probe.style, {
      position: "absolute",
      visibility: "hidden",
      width: "max-content",
      minWidth: "0",
      maxWidth: "none",
    });
    el.parentElement?.append(probe);
    const needed = probe.getBoundingClientRect().width;
    probe.remove();
    const box = el.getBoundingClientRect();
    return { text: option.text, width: box.width, needed, right: box.right, view: innerWidth };
  });
}

async function open(page: Page, url: string, javaScriptEnabled: boolean) {
  await page.goto(url);
  if (javaScriptEnabled) await waitForHydration(page);
}

test("a row's status and stage show their whole value at 390 and 1280 px", async ({
  page,
  javaScriptEnabled,
  seed,
}, testInfo) => {
  const m = marker();
  const id = await seed.request({ name: `Selma Select ${m}` });
  await loginAs(page, await seed.admin());
  const list = `/admin/requests?q=${m}`;
  // The longest stage and status of the defaults: "Testversion geliefert", "In Bearbeitung".
  await page.setViewportSize({ width: 390, height: 844 });
  await open(page, list, javaScriptEnabled);
  await row(page, id)
    .getByRole("combobox", { name: `Phase von Anfrage ${id}` })
    .selectOption({ label: "Testversion geliefert" });
  if (!javaScriptEnabled)
    await row(page, id).getByRole("button", { name: "Phase speichern" }).click();
  await expect.poll(() => stageOf(id)).toBe("trial");

  for (const size of SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await open(page, list, javaScriptEnabled);
    const status = row(page, id).getByRole("combobox", { name: `Status von Anfrage ${id}` });
    const stage = row(page, id).getByRole("combobox", { name: `Phase von Anfrage ${id}` });
    await expect(status).toHaveValue("In Progress");
    await expect(stage).toHaveValue("trial");
    await row(page, id).screenshot({ path: testInfo.outputPath(`row-selects-${size.name}.png`) });
    for (const [select, text] of [
      [status, "In Bearbeitung"],
      [stage, "Testversion geliefert"],
    ] as const) {
      await expect(select).toBeInViewport();
      const w = await widths(select);
      expect(w.text).toBe(text);
      // The whole value fits (half a pixel of rounding), and the select ends within the screen.
      expect(w.width, `${size.name}: ${JSON.stringify(w)}`).toBeGreaterThanOrEqual(w.needed - 0.5);
      expect(w.right, `${size.name}: ${JSON.stringify(w)}`).toBeLessThanOrEqual(w.view);
    }
  }
});

/**
 * "Verloren" in the stage select of `scope` (a row, the full-screen view): with JS the reason step
 * opens at once; without JS the server answers "Phase speichern" with it (URL #request-N).
 */
async function chooseLost(scope: Locator, id: number, javaScriptEnabled: boolean) {
  await scope
    .getByRole("combobox", { name: `Phase von Anfrage ${id}` })
    .selectOption({ label: "Verloren" });
  if (!javaScriptEnabled) await scope.getByRole("button", { name: "Phase speichern" }).click();
}

for (const size of SIZES) {
  test(`moving a row to "Verloren" focuses the reason on screen (${size.name})`, async ({
    page,
    javaScriptEnabled,
    seed,
  }, testInfo) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    const m = marker();
    // Two rows: the one moved is the second (older) one, below the first.
    const id = await seed.request({ name: `Lara Verloren ${m}` });
    await seed.request({ name: `Otto Oben ${m}` });
    await signIn(page, await seed.admin(), { to: `/admin/requests?q=${m}` });
    if (javaScriptEnabled) await waitForHydration(page);
    await chooseLost(row(page, id), id, javaScriptEnabled);
    const step = page.locator(`[data-reason-step="${id}"]`);
    const reason = step.getByLabel("Grund für „Verloren“");
    await expect(reason).toBeFocused();
    await expect(reason).toBeInViewport();
    // A question, not an error: no alert; without JS the page's answer describes the select.
    await expect(step.getByRole("alert")).toHaveCount(0);
    if (!javaScriptEnabled)
      await expect(reason).toHaveAccessibleDescription(
        "Bitte wählen Sie einen Grund für „Verloren“.",
      );
    await expect(
      step.getByRole("button", { name: "Nach „Verloren“ verschieben" }),
    ).toBeInViewport();
    await expect(page.locator("[data-reason-step]")).toHaveCount(1);
    await page.screenshot({ path: testInfo.outputPath(`row-reason-${size.name}.png`) });
    // The keyboard goes on from there: a reason, the move.
    await page.keyboard.press("ArrowDown");
    await expect(reason).not.toHaveValue("");
    await step.getByRole("button", { name: "Nach „Verloren“ verschieben" }).click();
    await expect.poll(() => stageOf(id)).toBe("lost");
    await expect(page.locator("[data-reason-step]")).toHaveCount(0);
    // The row is back on screen with its anchor (without JS the page came back to #request-N);
    // with JS the focus is back on its stage select, which shows the new stage.
    await expect(page.locator(`#request-${id}`)).toBeInViewport();
    const stage = row(page, id).getByRole("combobox", { name: `Phase von Anfrage ${id}` });
    await expect(stage).toHaveValue("lost");
    if (javaScriptEnabled) await expect(stage).toBeFocused();
  });

  test(`moving to "Verloren" in the full-screen view focuses its reason (${size.name})`, async ({
    page,
    javaScriptEnabled,
    seed,
  }, testInfo) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    const m = marker();
    const id = await seed.request({ name: `Vera Vollbild ${m}` });
    await signIn(page, await seed.admin(), { to: `/admin/requests?q=${m}&requestId=${id}` });
    if (javaScriptEnabled) await waitForHydration(page);
    const view = page.locator("[data-fullscreen]");
    await chooseLost(view, id, javaScriptEnabled);
    // The step is the view's; the row behind it shows none.
    await expect(page.locator("[data-reason-step]")).toHaveCount(1);
    const reason = view.locator(`[data-reason-step="${id}"]`).getByLabel("Grund für „Verloren“");
    await expect(reason).toBeFocused();
    await expect(reason).toBeInViewport();
    await page.screenshot({ path: testInfo.outputPath(`fullscreen-reason-${size.name}.png`) });
    await reason.selectOption("Kein Budget");
    await view.getByRole("button", { name: "Nach „Verloren“ verschieben" }).click();
    await expect.poll(() => stageOf(id)).toBe("lost");
  });
}
