import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { holdScripts, waitForHydration } from "./hydration";

// The full-screen request view: the focus moves in, stays inside and returns on Escape (the page
// behind is inert); a preparation saved meanwhile in another tab conflicts only when its texts
// changed, and the draft survives the conflict; the generated AI prompt is brought into view; a
// view scrolled before it hydrated keeps its place.

const DESKTOP = { width: 1280, height: 800 };
const marker = () => randomBytes(4).toString("hex");

test("preparation: an unrelated change in another tab is no conflict; a real one keeps the draft", async ({
  page,
  loginAsNew,
  javaScriptEnabled,
  seed,
}) => {
  const m = marker();
  const id = await seed.request({
    name: `Kundin ${m}`,
    email: `${m}@example.com`,
    phone: "+49 30 1234 5678",
    companyDescription: `Tischlerei ${m} mit zwölf Angestellten in Leipzig`,
    description: `Eine Auftragsverwaltung ${m}.`,
  });
  await loginAsNew(page);
  await page.goto(`/admin/requests?requestId=${id}`);
  const view = page.getByRole("dialog", { name: `Kundin ${m}` });
  await expect(view).toBeVisible();
  if (javaScriptEnabled) await waitForHydration(page);

  // "Tab B" (same session) changes only the status.
  const otherTab = (fields: Record<string, string>) =>
    page.request.post(`/admin/requests?requestId=${id}`, {
      form: { id: String(id), ...fields },
      maxRedirects: 0,
    });
  expect((await otherTab({ intent: "status", status: "Done" })).status()).toBe(302);
  await view.getByLabel("Kernfunktionen").fill(`Montageplanung ${m}`);
  await view.getByRole("button", { name: "Vorbereitung speichern" }).click();
  await expect(page.getByText("Vorbereitung gespeichert.")).toBeVisible();
  await expect(view.getByLabel("Kernfunktionen")).toHaveValue(`Montageplanung ${m}`);

  // Tab B now changes the texts themselves: tab A's save conflicts, and its draft stays.
  const loadedUpdatedAt = await view.locator('input[name="updatedAt"]').inputValue();
  expect(
    (
      await otherTab({
        intent: "preparation",
        updatedAt: loadedUpdatedAt,
        "prep.kernfunktionen": `Fassung B ${m}`,
      })
    ).status(),
  ).toBe(302);
  await view.getByLabel("Zielgruppe").fill(`Mein Entwurf ${m}`);
  await view.getByRole("button", { name: "Vorbereitung speichern" }).click();
  await expect(
    view.getByText("Die Vorbereitung wurde inzwischen von jemand anderem geändert."),
  ).toBeVisible();
  await expect(view.getByLabel("Zielgruppe")).toHaveValue(`Mein Entwurf ${m}`);
  await expect(view.getByLabel("Kernfunktionen")).toHaveValue(`Montageplanung ${m}`);
  // Saving again (after the warning) wins; the reloaded page shows the draft as stored.
  await view.getByRole("button", { name: "Vorbereitung speichern" }).click();
  await expect(view.getByText("Die Vorbereitung wurde inzwischen")).toHaveCount(0);
  await page.reload();
  await expect(view.getByLabel("Zielgruppe")).toHaveValue(`Mein Entwurf ${m}`);
  await expect(view.getByLabel("Kernfunktionen")).toHaveValue(`Montageplanung ${m}`);
});

test("full-screen request view: focus moves in, stays inside, the page behind is inert; Escape returns it", async ({
  page,
  loginAsNew,
  javaScriptEnabled,
  seed,
}) => {
  const m = marker();
  const name = `Fokus ${m}`;
  const id = await seed.request({
    name,
    email: `${m}@example.com`,
    phone: "+49 30 1234 5678",
    companyDescription: `Tischlerei ${m} mit zwölf Angestellten in Leipzig`,
    description: `Eine Auftragsverwaltung ${m}.`,
  });
  await loginAsNew(page);
  await page.goto(`/admin/requests?q=${m}`);
  if (javaScriptEnabled) await waitForHydration(page);
  const open = page.getByRole("link", { name: /im Vollbild öffnen/ });
  await open.click();
  await expect(page).toHaveURL(new RegExp(`requestId=${id}`));
  const view = page.getByRole("dialog", { name });
  await expect(view).toBeVisible();
  if (!javaScriptEnabled) {
    // Without JS a page section: its controls work, "Schließen" leads back to the list.
    await expect(view.getByRole("button", { name: "Vorbereitung speichern" })).toBeVisible();
    await view.getByRole("link", { name: "Schließen" }).click();
    await expect(page).not.toHaveURL(/requestId=/);
    return;
  }
  const title = view.getByRole("heading", { name, level: 2 });
  await expect(title).toBeFocused();
  const focusInside = () =>
    page.evaluate(() => Boolean(document.activeElement?.closest("[data-fullscreen]")));
  // Shift+Tab from the first stop wraps to the last one inside; Tab through stays inside.
  await page.keyboard.press("Shift+Tab");
  expect(await focusInside()).toBe(true);
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press("Tab");
    expect(await focusInside()).toBe(true);
  }
  // The page behind is inert (the toasts' live region stays reachable).
  expect(
    await page.evaluate(() => {
      const dialog = document.querySelector("[data-fullscreen]") as HTMLElement;
      const outside = [...document.querySelectorAll<HTMLElement>("a[href], button")].filter(
        (el) => !dialog.contains(el) && !el.closest("[data-inert-exempt]"),
      );
      return outside.length > 0 && outside.every((el) => el.closest("[inert]"));
    }),
  ).toBe(true);
  await title.focus();
  await page.keyboard.press("Escape");
  await expect(page).not.toHaveURL(/requestId=/);
  await expect(open).toBeFocused();
  expect(await page.evaluate(() => document.querySelectorAll("[inert]").length)).toBe(0);

  // A direct load of the link puts the focus into the view as well.
  await page.goto(`/admin/requests?requestId=${id}`);
  await waitForHydration(page);
  await expect(page.getByRole("dialog", { name }).getByRole("heading", { level: 2 })).toBeFocused();

  // Closed again, the focus lands on the row's "Vollbild" link (nothing had it before the view)…
  await page.goto(`/admin/requests?q=${m}&requestId=${id}`);
  await waitForHydration(page);
  await expect(page.getByRole("dialog", { name })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page).not.toHaveURL(/requestId=/);
  await expect(open).toBeFocused();
  // …or on the list's heading when the row is not on this page.
  await page.goto(`/admin/requests?q=keine-solche-anfrage-${m}&requestId=${id}`);
  await waitForHydration(page);
  await expect(page.getByRole("dialog", { name })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page).not.toHaveURL(/requestId=/);
  await expect(page.getByRole("heading", { level: 1 })).toBeFocused();
});

async function openPrompt(page: Page, seedId: number, javaScriptEnabled: boolean, m: string) {
  await page.goto(`/admin/requests?requestId=${seedId}`);
  const view = page.getByRole("dialog", { name: `Kundin ${m}` });
  await expect(view).toBeVisible();
  if (javaScriptEnabled) await waitForHydration(page);
  return view;
}

test("request AI tools at 1280 px: the generated prompt is brought into view", async ({
  page,
  loginAsNew,
  javaScriptEnabled,
  seed,
}, testInfo) => {
  await page.setViewportSize(DESKTOP);
  const m = marker();
  const id = await seed.request({
    name: `Kundin ${m}`,
    email: `${m}@example.com`,
    phone: "+49 30 1234 5678",
    companyDescription: `Bäckerei ${m} mit drei Filialen in Berlin`,
    description: `Eine App für Vorbestellungen ${m}.`,
  });
  await loginAsNew(page);
  const view = await openPrompt(page, id, javaScriptEnabled, m);
  await view.getByRole("button", { name: "Prompt für KI-Coding-Assistent erstellen" }).click();
  const prompt = view.getByLabel("Prompt", { exact: true });
  await expect(prompt).toHaveValue(/Prompt für den Coding-Assistenten/);
  await expect(prompt).toBeInViewport();
  // With JS it is focused (announced by its label); without JS the answer page opens at its anchor.
  if (javaScriptEnabled) await expect(prompt).toBeFocused();
  else await expect(page).toHaveURL(new RegExp(`#prompt-result-${id}$`));
  await page.screenshot({ path: testInfo.outputPath("prompt-1280.png") });
});

test("a full-screen view scrolled before it hydrates stays where it was scrolled to @js-only", async ({
  page,
  loginAsNew,
  seed,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const m = marker();
  const name = `Lang ${m}`;
  const id = await seed.request({
    name,
    email: `${m}@example.com`,
    phone: "+49 30 1234 5678",
    companyDescription: `Gärtnerei ${m} mit drei Standorten in Dresden`,
    description: `Ein Abo-Shop für Pflanzen ${m}.`,
  });
  await loginAsNew(page);
  // The view as the server sends it, its JavaScript held back until the admin has scrolled.
  const scripts = await holdScripts(page);
  await page.goto(`/admin/requests?requestId=${id}`, { waitUntil: "commit" });
  const view = page.getByRole("dialog", { name });
  const save = view.getByRole("button", { name: "Vorbereitung speichern" });
  await save.scrollIntoViewIfNeeded();
  await expect(save).toBeInViewport();
  await scripts.release();
  await waitForHydration(page);
  // The focus is in the dialog (its heading), and the view did not jump back to the top.
  await expect(view.getByRole("heading", { name, level: 2 })).toBeFocused();
  await expect(save).toBeInViewport();
  expect(await view.evaluate((element) => element.scrollTop)).toBeGreaterThan(0);
});
