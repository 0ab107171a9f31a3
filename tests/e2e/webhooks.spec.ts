import { axeOn } from "./axe";
import { expect, test } from "./fixtures";
import { waitForHydration } from "./hydration";

// axe over the settings page and the outbox is slow on a loaded two-core machine (as in
// settings-spam and settings-lists).
test.describe.configure({ timeout: 180_000 });

// The settings page's webhook section (ADR 248): add with the offered secret, a German validation
// message, the secret masked afterwards, edit keeping the secret, remove — with and without JS.
test("webhooks: add, validate, edit keeping the secret, remove", async ({
  page,
  loginAsNew,
  javaScriptEnabled,
}) => {
  await loginAsNew(page);
  await page.goto("/admin/settings");
  if (javaScriptEnabled) await waitForHydration(page);
  const section = page.locator("form", {
    has: page.getByRole("heading", { name: "Neuen Webhook hinzufügen" }),
  });
  await expect(section).toBeVisible();
  const offered = await section.getByLabel("Secret").inputValue();
  expect(offered).toMatch(/^[A-Za-z0-9_-]{32}$/);

  // No event chosen: refused with the German message, the typed URL stays.
  await section.getByLabel("URL").fill("https://hooks.example.com/anfragen");
  for (const box of await section.getByRole("checkbox").all()) await box.uncheck();
  await section.getByRole("button", { name: "Webhook hinzufügen" }).click();
  const refused = page.locator("form", {
    has: page.getByRole("heading", { name: "Neuen Webhook hinzufügen" }),
  });
  await expect(refused.getByText("Bitte wählen Sie mindestens ein Ereignis aus!")).toBeVisible();
  await expect(refused.getByLabel("URL")).toHaveValue("https://hooks.example.com/anfragen");

  await refused.getByLabel("Neue Anfrage").check();
  await refused.getByLabel("Format").selectOption("slack");
  await refused.getByLabel("Secret").fill(offered);
  await refused.getByRole("button", { name: "Webhook hinzufügen" }).click();
  await expect(page.getByText("Webhook hinzugefügt.")).toBeVisible();

  const saved = page.locator("form", { has: page.getByRole("heading", { name: "Webhook 1" }) });
  // A Slack URL is a credential: shown with its host and last four characters only (finding 6).
  await expect(saved.getByLabel("URL")).toHaveValue("https://hooks.example.com/••••••••agen");
  await expect(saved.getByLabel("Format")).toHaveValue("slack");
  await expect(saved.getByLabel("Neue Anfrage")).toBeChecked();
  await expect(saved.getByLabel("Demo-Termin gebucht")).not.toBeChecked();
  // The secret is never shown again in full: empty field, masked hint with its last four characters.
  await expect(saved.getByLabel("Secret")).toHaveValue("");
  await expect(saved.getByText(`Gespeichert: ••••••••${offered.slice(-4)}.`)).toBeVisible();
  // A fresh load of the page carries the secret nowhere (not even in the hydration data).
  const fresh = await (await page.request.get("/admin/settings")).text();
  expect(fresh).not.toContain(offered);
  expect(fresh).not.toContain("hooks.example.com/anfragen");

  if (javaScriptEnabled) {
    // axe (needs script injection): the section with a saved endpoint and a refused form.
    const violations = (await axeOn(page).analyze()).violations;
    expect(violations.map((v) => `${v.id} ${v.nodes[0]?.target}`)).toEqual([]);
    await page.goto("/admin/settings/outbox");
    await expect(page.getByRole("heading", { name: /Webhooks \(\d+\)/ })).toBeVisible();
    const outbox = (await axeOn(page).analyze()).violations;
    expect(outbox.map((v) => `${v.id} ${v.nodes[0]?.target}`)).toEqual([]);
    await page.goto("/admin/settings");
    await waitForHydration(page);
  }

  // Edit the URL, leave the secret empty: refused (ADR 262: a new address needs a new secret, so
  // the old secret never reaches it); with a new secret, saved.
  await saved.getByLabel("URL").fill("https://hooks.example.com/neu");
  await saved.getByRole("button", { name: "Webhook speichern" }).click();
  await expect(page.getByText(/Bitte vergeben Sie auch ein neues Secret/)).toBeVisible();
  const retry = page.locator("form", { has: page.getByRole("heading", { name: "Webhook 1" }) });
  const newSecret = "ein-neues-geheimnis-fuer-die-neue-adresse";
  await retry.getByLabel("URL").fill("https://hooks.example.com/neu");
  await retry.getByLabel("Secret").fill(newSecret);
  await retry.getByRole("button", { name: "Webhook speichern" }).click();
  await expect(page.getByText("Webhook gespeichert.")).toBeVisible();
  const edited = page.locator("form", { has: page.getByRole("heading", { name: "Webhook 1" }) });
  await expect(edited.getByLabel("URL")).toHaveValue("https://hooks.example.com/••••••••neu");
  await expect(edited.getByText(`Gespeichert: ••••••••${newSecret.slice(-4)}.`)).toBeVisible();

  await edited.getByRole("button", { name: "Webhook entfernen" }).click();
  await expect(page.getByText("Webhook entfernt.")).toBeVisible();
  await expect(page.getByText("Noch keine Webhooks.")).toBeVisible();
});
