import type { Locator, Page } from "@playwright/test";
import { signIn } from "./auth";
import { expect, test } from "./fixtures";
import { holdScripts, waitForHydration } from "./hydration";
import { removeRequest } from "./seed";

// A list row's detail tabs are loaded when the row is expanded (ADR 190): without JS the expand
// control is a link to `?expand={id}#request-{id}` (the server renders that row expanded), with
// JS a button that expands in place and fetches the details.

const marker = () => Math.random().toString(16).slice(2, 10);

function expandToggle(row: Locator, name: string, javaScriptEnabled: boolean) {
  return row.getByRole(javaScriptEnabled ? "button" : "link", { name: `Details zu ${name}` });
}

function rowOf(page: Page, name: string) {
  return page.getByTestId("request-row").filter({ hasText: name });
}

test("expanding a row shows its details only; it closes again; full screen from the row", async ({
  page,
  loginAsNew,
  javaScriptEnabled,
  seed,
}) => {
  const m = marker();
  const id = await seed.request({
    name: `Offen ${m}`,
    companyDescription: `Firma Eins ${m} mit Werkstatt\nEins-Details ${m} im Hinterhof`,
  });
  await seed.request({
    name: `Zu ${m}`,
    companyDescription: `Firma Zwei ${m} mit Laden\nZwei-Details ${m} am Markt`,
  });
  await loginAsNew(page);
  await page.goto(`/admin/requests?q=${m}`);
  if (javaScriptEnabled) await waitForHydration(page);
  const row = rowOf(page, `Offen ${m}`);
  const toggle = expandToggle(row, `Offen ${m}`, javaScriptEnabled);
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  // A collapsed row shows the company's first line only (ADR 236); the details are not rendered.
  await expect(page.getByText(`Eins-Details ${m}`)).toHaveCount(0);

  if (javaScriptEnabled) {
    // Hold the details request to see the loading state.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(`**/admin/requests/${id}/details**`, async (route) => {
      await held;
      await route.continue();
    });
    await toggle.click();
    await expect(row.getByRole("status")).toHaveText("Details werden geladen …");
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
    release();
    await expect(row.getByRole("tab", { name: "Unternehmen" })).toHaveAttribute(
      "aria-selected",
      "true",
    );
    await expect(toggle).toBeFocused();
    expect(page.url()).not.toContain("expand=");
  } else {
    await toggle.click();
    await expect(page).toHaveURL(new RegExp(`[?&]expand=${id}#request-${id}$`));
    for (const label of ["Unternehmen", "Anfrage", "Dateien", "Preparation", "AI Tools"])
      await expect(row.getByRole("region", { name: label })).toBeVisible();
  }
  await expect(row.getByText(`Eins-Details ${m}`)).toBeVisible();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await expect(page.getByText(`Zwei-Details ${m}`)).toHaveCount(0);

  await toggle.click();
  await expect(page.getByText(`Eins-Details ${m}`)).toHaveCount(0);
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  if (!javaScriptEnabled) await expect(page).not.toHaveURL(/expand=/);

  // The full-screen view (requestId) still opens from the row.
  await row.getByRole("link", { name: /im Vollbild öffnen/ }).click();
  await expect(page).toHaveURL(new RegExp(`requestId=${id}`));
  await expect(page.getByRole("dialog", { name: `Offen ${m}` })).toBeVisible();
});

test("actions inside an expanded row return to the list with the row still expanded", async ({
  page,
  javaScriptEnabled,
  seed,
}) => {
  const m = marker();
  const name = `Aktion ${m}`;
  const id = await seed.request({ name, companyDescription: `Firma Aktion ${m}` });
  const admin = await seed.admin();
  await signIn(page, admin, { to: `/admin/requests?q=${m}` });
  if (javaScriptEnabled) await waitForHydration(page);
  const row = rowOf(page, name);
  await expandToggle(row, name, javaScriptEnabled).click();
  const panel = page.locator(`#request-${id}-details`);

  // Preparation: saved, and the row shows the saved text afterwards.
  if (javaScriptEnabled) await panel.getByRole("tab", { name: "Preparation" }).click();
  await panel.getByLabel("Zielgruppe").fill(`Handwerk ${m}`);
  await panel.getByRole("button", { name: "Vorbereitung speichern" }).click();
  await expect(page.getByText("Vorbereitung gespeichert.")).toBeVisible();
  await expect(panel.getByLabel("Zielgruppe")).toHaveValue(`Handwerk ${m}`);
  await expect(expandToggle(row, name, javaScriptEnabled)).toHaveAttribute("aria-expanded", "true");
  // Without JS the redirect keeps the form's #request-{id}: the page lands on the row again.
  if (!javaScriptEnabled)
    await expect(page).toHaveURL(new RegExp(`[?&]expand=${id}#request-${id}$`));
  // The toast may cover the row's lower buttons: close it like a user would.
  const toasts = page.getByRole("region", { name: "Benachrichtigungen" });
  if (javaScriptEnabled) await toasts.getByRole("button", { name: "Schließen" }).click();
  else await toasts.getByRole("checkbox", { name: "Schließen" }).press("Space");

  // Assignment inside the details: the expanded row shows the new state (fresh details).
  if (javaScriptEnabled) await panel.getByRole("tab", { name: "Zuweisung" }).click();
  await panel.getByLabel("Admin zuweisen").selectOption({ label: admin.username });
  await panel.getByRole("button", { name: "Zuweisen", exact: true }).click();
  await expect(page.getByText(`${admin.username} wurde zugewiesen.`)).toBeVisible();
  await expect(
    panel.getByRole("button", { name: `Zuweisung von ${admin.username} entfernen` }),
  ).toBeVisible();
  await expect(panel.getByText(`Firma Aktion ${m}`)).toHaveCount(javaScriptEnabled ? 0 : 1);
});

test("a row deleted meanwhile says so when expanded @js-only", async ({
  page,
  loginAsNew,
  seed,
}) => {
  const m = marker();
  const name = `Weg ${m}`;
  const id = await seed.request({ name, companyDescription: `Firma Weg ${m} mit Lager` });
  await loginAsNew(page);
  await page.goto(`/admin/requests?q=${m}`);
  await waitForHydration(page);
  // Another admin deletes the request after this page was loaded.
  await removeRequest(id);
  const row = rowOf(page, name);
  await expandToggle(row, name, true).click();
  await expect(page.locator(`#request-${id}-details`).getByRole("alert")).toHaveText(
    "Anfrage nicht gefunden.",
  );
});

test("a click pressed before the page hydrates and released after it still opens the row @js-only", async ({
  page,
  seed,
}) => {
  const m = marker();
  const name = `Früh ${m}`;
  await seed.request({ name, companyDescription: `Firma Früh ${m} mit Laden` });
  const admin = await seed.admin();
  await signIn(page, admin, { to: `/admin/requests?q=${m}` });
  // The list again, its JavaScript held back: the expand control is the server's link.
  const scripts = await holdScripts(page);
  await page.goto(`/admin/requests?q=${m}`, { waitUntil: "commit" });
  const row = rowOf(page, name);
  const link = row.getByRole("link", { name: `Details zu ${name}` });
  const box = await link.boundingBox();
  if (!box) throw new Error("the expand link has no box");
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  // The page hydrates while the button is held down; the control stays the element pressed.
  await scripts.release();
  await waitForHydration(page);
  await page.mouse.up();
  const toggle = expandToggle(row, name, true);
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await expect(row.getByRole("tab", { name: "Unternehmen" })).toBeVisible();
  await expect(toggle).toBeFocused();
  expect(page.url()).not.toContain("expand=");
  // The space bar closes it again, as it does on any button.
  await toggle.press("Space");
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect(row.getByRole("tab", { name: "Unternehmen" })).toHaveCount(0);
});

test("the back button to the expanded row's address opens it again @js-only", async ({
  page,
  seed,
}) => {
  const m = marker();
  const name = `Zurück ${m}`;
  const id = await seed.request({ name, companyDescription: `Firma Zurück ${m} am Markt` });
  const admin = await seed.admin();
  // The server's expanded row (the address a no-JS admin or a bookmark brings).
  await signIn(page, admin, { to: `/admin/requests?q=${m}&expand=${id}` });
  await waitForHydration(page);
  const row = rowOf(page, name);
  const toggle = expandToggle(row, name, true);
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  // Elsewhere in the app without a reload, then back to the address that names the row.
  await page.getByRole("link", { name: `Filter entfernen: Suche: „${m}“` }).click();
  await expect(page).not.toHaveURL(/[?&](q|expand)=/);
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`expand=${id}`));
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await expect(row.getByRole("tab", { name: "Unternehmen" })).toBeVisible();
});
