import { randomBytes } from "node:crypto";
import { expect, test } from "./fixtures";
import { waitForHydration } from "./hydration";

// "German where the spec leaves room": sort labels in the words of the spec's 'Neuste',
// destructive confirmations that name the action and its object (buttons stay the spec's), and
// 'N/A' only for a missing scheduling-service id.

test("sort labels use the spec's 'Neuste' wording @static", async ({ page, loginAsNew }) => {
  await loginAsNew(page);
  await page.goto("/admin/requests");
  await expect(page.getByLabel("Sortierung").locator("option")).toHaveText([
    "Neuste",
    "Älteste",
    "Höchste ID",
    "Niedrigste ID",
  ]);
  await page.goto("/admin/appointments");
  await expect(page.getByLabel("Sortierung").locator("option").first()).toHaveText("Neuste");
  await page.goto("/admin/dashboard");
  await expect(page.getByRole("heading", { name: "Neuste Anfragen" })).toBeVisible();
});

test("deleting an attachment asks with the action in the title and the file in the message", async ({
  page,
  seed,
  javaScriptEnabled,
}) => {
  const file = `Angebot-${randomBytes(3).toString("hex")}.pdf`;
  const id = await seed.request({ pdf: file });
  await page.goto("/admin/login");
  const admin = await seed.admin();
  await page.getByLabel("Benutzername").fill(admin.username);
  await page.getByLabel("Passwort", { exact: true }).fill(admin.password);
  await page.getByRole("button", { name: "Anmelden" }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard/);
  await page.goto(`/admin/requests?requestId=${id}`);
  if (javaScriptEnabled) await waitForHydration(page);
  await page.getByRole("button", { name: `${file} löschen` }).click();
  const ask = javaScriptEnabled
    ? page.getByRole("alertdialog")
    : page.locator("[data-confirmation-step]");
  await expect(ask.getByRole("heading", { name: "Anhang löschen" })).toBeVisible();
  await expect(ask).toContainText(`Möchten Sie den Anhang „${file}“ wirklich löschen?`);
  // The buttons keep the spec's words.
  await expect(
    ask.getByRole(javaScriptEnabled ? "button" : "link", { name: "Abbrechen" }),
  ).toBeVisible();
  await ask.getByRole("button", { name: "Bestätigen" }).click();
  await expect(page.getByText("Anhang gelöscht.")).toBeVisible();
});

test("appointment cards: 'N/A' only for a missing scheduling-service id, no 'Anfrage: N/A' @static", async ({
  page,
  seed,
  loginAsNew,
}) => {
  const name = `Demo ${randomBytes(3).toString("hex")}`;
  await seed.appointment({
    name,
    startTime: new Date(Date.now() + 86_400_000),
    status: "ACCEPTED",
  });
  await loginAsNew(page);
  await page.goto("/admin/appointments");
  const card = page.locator("article, li").filter({ hasText: name }).first();
  await expect(card).toContainText("Kontaktdaten nicht verfügbar");
  // A built-in booking has no scheduling-service id: no 'Termin-ID: N/A' line and no
  // "Aktualisieren" (ADR 282, a deliberate deviation); Cal.com cards keep both (booking.spec).
  await expect(card).not.toContainText("Termin-ID:");
  await expect(card).not.toContainText("N/A");
  await expect(card.getByRole("button", { name: /aktualisieren/i })).toHaveCount(0);
  await expect(card).not.toContainText("Anfrage: N/A");
});
