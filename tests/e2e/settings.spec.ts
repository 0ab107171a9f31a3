import { loginAs } from "./auth";
import { expect, test } from "./fixtures";
import { waitForHydration } from "./hydration";

test("affiliate codes: create, copy, toggle, delete, and the code on the landing page", async ({
  page,
  loginAsNew,
  javaScriptEnabled,
  context,
  browser,
}) => {
  await loginAsNew(page);
  await page.goto("/admin/affiliate-codes");
  if (javaScriptEnabled) await waitForHydration(page);
  await expect(page.getByRole("heading", { name: /Affiliate Codes \(\d+\)/ })).toBeVisible();

  // Validation message, then a real code.
  await page.getByLabel("Rabatt (%)").fill("0");
  await page.getByLabel("Partnername").fill("Partner X");
  await page.getByLabel("E-Mail").fill("px@example.com");
  await page.getByLabel("Rabatt (%)").evaluate((el) => el.removeAttribute("min"));
  await page.getByRole("button", { name: "Code erstellen" }).click();
  await expect(
    page.getByText("Der Rabatt muss zwischen 1 und 100 % liegen.").first(),
  ).toBeVisible();
  await page.getByLabel("Rabatt (%)").fill("12");
  await page.getByRole("button", { name: "Code erstellen" }).click();
  const toast = page.getByText(/Affiliate-Code erfolgreich erstellt! [A-Z2-9]{8}/);
  await expect(toast).toBeVisible();
  const code = ((await toast.textContent()) ?? "").match(/[A-Z2-9]{8}$/)?.[0] ?? "";
  const row = page.locator("tr", { hasText: code });
  await expect(row).toContainText("12%");
  // The create form is empty again (with JS too), ready for the next partner.
  await expect(page.getByLabel("Partnername")).toHaveValue("");
  await expect(page.getByLabel("E-Mail")).toHaveValue("");
  await expect(page.getByLabel("Rabatt (%)")).toHaveValue("");

  const link = `${new URL(page.url()).origin}/?code=${code}`;
  if (javaScriptEnabled) {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await row.getByRole("button", { name: "Kopieren", exact: true }).click();
    await expect(page.getByText("Code in die Zwischenablage kopiert!")).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);
    await row.getByRole("button", { name: "Link kopieren" }).click();
    await expect(page.getByText("Link in die Zwischenablage kopiert!")).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
  } else {
    await expect(row.getByRole("textbox", { name: "Kopieren", exact: true })).toHaveValue(code);
    await expect(row.getByRole("textbox", { name: "Link kopieren" })).toHaveValue(link);
  }

  // The landing page shows the code upper-cased with its discount.
  const visitor = await (await browser.newContext({ javaScriptEnabled })).newPage();
  await visitor.goto(`/?code=${code.toLowerCase()}`);
  await expect(visitor.getByText(new RegExp(`Code ${code}`)).first()).toBeVisible();
  await expect(visitor.getByText("12% Rabatt aktiv")).toBeVisible();

  await row.getByRole("button", { name: `${code} deaktivieren` }).click();
  await expect(page.locator("tr", { hasText: code })).toContainText("Inaktiv");
  await visitor.goto(`/?code=${code}`);
  await expect(visitor.getByText("12% Rabatt aktiv")).toHaveCount(0);

  await page
    .locator("tr", { hasText: code })
    .getByRole("button", { name: `${code} löschen` })
    .click();
  if (javaScriptEnabled) {
    await expect(page.getByRole("alertdialog")).toContainText(
      "Möchten Sie diesen Affiliate-Code wirklich löschen?",
    );
    await page.getByRole("alertdialog").getByRole("button", { name: "Bestätigen" }).click();
  } else {
    await expect(
      page.getByText("Möchten Sie diesen Affiliate-Code wirklich löschen?"),
    ).toBeVisible();
    await page.getByRole("button", { name: "Bestätigen" }).click();
  }
  await expect(page.getByText("Affiliate-Code gelöscht!")).toBeVisible();
  await expect(page.locator("tr", { hasText: code })).toHaveCount(0);
});

test("settings: banner text on /, upload limit refused on /, preparation fields, external address rules", async ({
  page,
  javaScriptEnabled,
  browser,
  openSettings,
}) => {
  // Whatever this test saves is put back afterwards (through the configuration server module).
  await openSettings(page);
  const banner = `Hinweis ${Math.random().toString(36).slice(2, 7)}`;
  await page.getByLabel("Banner anzeigen").check();
  await page.getByLabel("Text", { exact: true }).fill(banner);
  await page.getByLabel("Max. Größe pro Datei (MB)").fill("1");

  // External addresses (a list: "Hinzufügen" adds a row): the spec's messages at the address.
  const save = page.getByRole("button", { name: "Konfiguration speichern" });
  const address = page.getByLabel(/^Externe E-Mail-Adresse/).last();
  await page.getByLabel("Benachrichtigungen aktiv").check();
  await page.getByRole("button", { name: "Hinzufügen", exact: true }).click();
  await address.fill("kein-at");
  await save.click();
  await expect(page.getByText("Bitte geben Sie eine gültige E-Mail-Adresse ein!")).toBeVisible();
  await address.fill("chef@example.com");
  if (javaScriptEnabled) await address.press("Enter");
  else await page.getByRole("button", { name: "Hinzufügen", exact: true }).click();
  await expect(page.getByRole("button", { name: "chef@example.com entfernen" })).toBeVisible();
  await address.fill("CHEF@example.com");
  await save.click();
  await expect(page.getByText("Diese E-Mail-Adresse ist bereits hinzugefügt!")).toBeVisible();
  await page.getByRole("button", { name: "CHEF@example.com entfernen", exact: true }).click();

  // Add a preparation field (name keeps letters and digits only) and delete it again later.
  await page.getByRole("button", { name: "Feld hinzufügen" }).click();
  await page.getByLabel("Name (nur Buchstaben und Ziffern)").fill("Budget-Rahmen 2");
  await page.getByLabel("Label", { exact: true }).last().fill("Budgetrahmen");
  await expect(page.getByLabel("Name (nur Buchstaben und Ziffern)")).toHaveValue("Budget-Rahmen 2");
  // The draft kept the earlier edits.
  await expect(page.getByLabel("Text", { exact: true })).toHaveValue(banner);

  await page.getByRole("button", { name: "Konfiguration speichern" }).click();
  await expect(page.getByText("Konfiguration erfolgreich gespeichert!")).toBeVisible();
  await expect(page.getByText("BudgetRahmen2")).toBeVisible();

  // The landing page shows the banner and refuses a too-large file.
  const visitor = await (await browser.newContext({ javaScriptEnabled })).newPage();
  await visitor.goto("/");
  await expect(visitor.getByText(banner)).toBeVisible();
  if (javaScriptEnabled) {
    await waitForHydration(visitor);
    await visitor.getByLabel("Dateien anhängen (optional)").setInputFiles({
      name: "gross.pdf",
      mimeType: "application/pdf",
      buffer: Buffer.alloc(1024 * 1024 + 10, 1),
    });
    await expect(
      visitor.getByText(/gross\.pdf: Datei zu groß \(1 MB\)\. Maximum: 1 MB/),
    ).toBeVisible();
  } else {
    await expect(visitor.getByText(/je 1 MB/)).toBeVisible();
  }

  // Delete the field again (with confirmation when JS runs).
  await page.getByRole("button", { name: "Feld Budgetrahmen löschen" }).click();
  if (javaScriptEnabled) {
    await expect(page.getByRole("alertdialog")).toContainText(
      "Möchten Sie dieses Feld wirklich löschen?",
    );
    await page.getByRole("alertdialog").getByRole("button", { name: "Bestätigen" }).click();
  }
  await expect(page.getByText("BudgetRahmen2")).toHaveCount(0);
});

test("outbox: mails are readable with masked token links", async ({ page, seed }) => {
  const admin = await seed.admin();
  await loginAs(page, admin);
  // An invitation mail carries a token link.
  await page.goto("/admin/users");
  const email = `eingeladen-${Math.random().toString(36).slice(2, 7)}@example.com`;
  await page.getByLabel("E-Mail-Adresse").fill(email);
  await page.getByRole("button", { name: "Einladung senden" }).click();
  await page.goto("/admin/settings/outbox");
  await expect(page.getByRole("heading", { name: /Postausgang/ })).toBeVisible();
  const item = page.locator("li", { hasText: `An: ${email}` });
  await item.locator("summary").click();
  await expect(item.locator("pre")).toContainText("token=••••••");
  await expect(item.locator("pre")).not.toContainText(/token=[A-Za-z0-9_-]{10,}/);
});

test("upload settings: per file is clamped to the total; the landing hint says '1 Datei'", async ({
  page,
  browser,
  javaScriptEnabled,
  openSettings,
}) => {
  await openSettings(page);
  // Each within its own range (the inputs' min/max), but per file above the total.
  await page.getByLabel("Max. Dateien pro Anfrage").fill("1");
  await page.getByLabel("Max. Größe pro Datei (MB)").fill("25");
  await page.getByLabel("Max. Gesamtgröße (MB)").fill("10");
  await page.getByRole("button", { name: "Konfiguration speichern" }).click();
  await expect(page.getByText("Konfiguration erfolgreich gespeichert!")).toBeVisible();
  await page.goto("/admin/settings");
  await expect(page.getByLabel("Max. Dateien pro Anfrage")).toHaveValue("1");
  await expect(page.getByLabel("Max. Größe pro Datei (MB)")).toHaveValue("10");
  await expect(page.getByLabel("Max. Gesamtgröße (MB)")).toHaveValue("10");

  const visitor = await (await browser.newContext({ javaScriptEnabled })).newPage();
  await visitor.goto("/");
  await expect(visitor.locator("#contact-attachments-hint")).toContainText(
    "1 Datei, bis zu 10 MB.",
  );
  await expect(visitor.getByText(/Bis zu 1 Dateien/)).toHaveCount(0);
});
