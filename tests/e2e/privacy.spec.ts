import type { Page } from "@playwright/test";
import { e2eDb } from "./db";
import { expect, test } from "./fixtures";

const unique = () => Math.random().toString(36).slice(2, 8);

async function submitRequest(page: Page, email: string) {
  await page.goto("/");
  await page.getByRole("button", { name: "Nur notwendige" }).click();
  await expect(page.getByRole("button", { name: "Alle akzeptieren" })).toHaveCount(0);
  await page.getByLabel("Name").fill("Rita Rückzug");
  await page.getByLabel("E-Mail").fill(email);
  await page.getByLabel("Telefon").fill("+49 30 7654321");
  await page.getByLabel("Beschreibe dein Unternehmen").fill("Ein Café mit Rösterei in Leipzig.");
  await page.getByLabel("Deine Projektidee (optional)").fill("Ein Bestellsystem für Kaffee.");
  await page.getByRole("button", { name: "Anfrage senden" }).click();
  await expect(page.getByTestId("submission-success")).toBeVisible();
  const db = e2eDb();
  const row = db.prepare("SELECT id FROM requests WHERE email = ?").get(email) as { id: number };
  db.close();
  return row.id;
}

const requestExists = (id: number) => {
  const db = e2eDb();
  const row = db.prepare("SELECT id FROM requests WHERE id = ?").get(id);
  db.close();
  return !!row;
};

test("the visitor withdraws their own request after a confirmation", async ({
  page,
  javaScriptEnabled,
}) => {
  const id = await submitRequest(page, `rita.${unique()}@example.com`);
  await page.goto("/#history");
  const number = `#${String(id).padStart(4, "0")}`;
  const row = page.getByTestId("history-row").filter({ hasText: number });
  await row.getByText("Ein Bestellsystem für Kaffee.").first().click();
  await expect(
    page.locator("#history").getByRole("link", { name: "Datenschutz-Kontakt" }),
  ).toBeVisible();
  await row.getByRole("button", { name: `Anfrage ${number} zurückziehen` }).click();
  if (javaScriptEnabled) {
    const dialog = page.getByRole("alertdialog");
    await expect(dialog).toContainText("wirklich zurückziehen?");
    await dialog.getByRole("button", { name: "Bestätigen" }).click();
  } else {
    await expect(page).toHaveURL(/\/anfrage-zurueckziehen$/);
    await expect(page.getByText("wirklich zurückziehen?")).toBeVisible();
    await page.getByRole("button", { name: "Bestätigen" }).click();
  }
  await expect(page.getByText("Deine Anfrage wurde zurückgezogen")).toBeVisible();
  await expect(page.getByTestId("history-row").filter({ hasText: number })).toHaveCount(0);
  expect(requestExists(id)).toBe(false);
});
