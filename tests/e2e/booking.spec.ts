import { signIn } from "./auth";
import { submitVisitorRequest as submitRequest } from "./fidelity-helpers";
import { expect, test, waitForMail } from "./fixtures";

test("a visitor books a demo slot and the admin sees and refreshes it on Termine", async ({
  page,
  javaScriptEnabled,
  browser,
  seed,
}) => {
  const tag = Math.random().toString(36).slice(2, 8);
  const name = `Bea Buchung ${tag}`;
  const email = `bea-${tag}@example.com`;
  const success = await submitRequest(page, name, email, javaScriptEnabled);

  let booked: string;
  if (javaScriptEnabled) {
    await success.getByRole("button", { name: "Demo-Termin buchen" }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog).toContainText(`Für: ${name}`);
    await expect(dialog).toContainText("So");
    // Step to next month (selection cleared), pick the first selectable day and the 2nd time.
    await dialog.getByRole("button", { name: "Nächster Monat" }).click();
    await dialog.locator("button[aria-pressed]:not([disabled])").first().click();
    const times = dialog.locator(".grid-cols-3 button");
    await expect(times.first()).toBeVisible();
    // js-on takes the 3rd free time, js-off the 2nd: the two projects run side by side.
    booked = (await times.nth(2).textContent()) ?? "";
    await times.nth(2).click();
    await dialog.getByRole("button", { name: "Termin verbindlich buchen" }).click();
    await expect(dialog).toContainText("Termin erfolgreich gebucht!");
    await expect(dialog).toContainText("Du erhältst eine Bestätigungs-E-Mail mit allen Details.");
    // The completion callback closes the modal after 2 s and the offer is gone.
    await expect(dialog).toHaveCount(0, { timeout: 5000 });
    await expect(success.getByRole("button", { name: "Demo-Termin buchen" })).toHaveCount(0);
  } else {
    await success.getByRole("link", { name: "Demo-Termin buchen" }).click();
    await expect(page).toHaveURL(/\/termin\?anfrage=\d+/);
    await expect(page.getByText(`Für: ${name}`)).toBeVisible();
    await page.getByRole("link", { name: "Nächster Monat" }).click();
    await page.locator("a[aria-label][href*='tag=']").first().click();
    const labels = page.locator("form label:has(input[name=startTime])");
    await expect(labels.first()).toBeVisible();
    booked = (await labels.nth(1).textContent()) ?? "";
    await labels.nth(1).click();
    await page.getByRole("button", { name: "Termin verbindlich buchen" }).click();
    await expect(page.getByText("Termin erfolgreich gebucht!")).toBeVisible();
  }
  const mail = await waitForMail(email, /Demo-Termin/);
  expect(mail.text).toContain(booked.trim());

  // The admin sees the appointment on Termine and searches it.
  const adminPage = await (
    await browser.newContext({ javaScriptEnabled, locale: "de-DE", timezoneId: "Europe/Berlin" })
  ).newPage();
  await signIn(adminPage, await seed.admin(), {
    to: `/admin/appointments?search=${encodeURIComponent(name)}`,
  });
  const card = adminPage.locator("li", { hasText: name });
  await expect(card).toContainText("Bestätigt");
  await expect(card).toContainText(`${booked.trim()} Uhr`);
  // A built-in booking has nothing to refresh: no "Aktualisieren", no 'Termin-ID' line (ADR 282,
  // a deliberate deviation; POST /api/admin/appointments/{id}/refresh still answers 200).
  await expect(card.getByRole("button", { name: /aktualisieren/i })).toHaveCount(0);
  await expect(card).not.toContainText("Termin-ID");
  await expect(card).toContainText(/Anfrage: #\d+/);
  await adminPage
    .locator("li", { hasText: name })
    .getByRole("link", { name: "Zur Anfrage" })
    .click();
  await expect(adminPage).toHaveURL(/requestId=\d+/);
  await adminPage.goto("/admin/appointments?search=niemand-sucht-das");
  await expect(adminPage.getByText("Keine Termine entsprechen den Suchkriterien.")).toBeVisible();
});

test("the booking page refuses a stranger's request @static", async ({ page }) => {
  const response = await page.goto("/termin?anfrage=1");
  expect(response?.status()).toBe(404);
  await expect(
    page.getByText("Diese Terminbuchung ist nur für die eigene Anfrage möglich."),
  ).toBeVisible();
});

test("against Cal.com: the visitor books through the API and the admin refreshes from Cal.com", async ({
  page,
  javaScriptEnabled,
  browser,
  calcomApp,
}) => {
  // The second app server (this worker's, started on first use) talks to the Cal.com stand-in.
  const CALCOM_APP_URL = calcomApp.url;
  const tag = Math.random().toString(36).slice(2, 8);
  const name = `Carl Cal ${tag}`;
  const email = `carl-${tag}@example.com`;
  const success = await submitRequest(page, name, email, javaScriptEnabled, CALCOM_APP_URL);
  let booked: string;
  if (javaScriptEnabled) {
    await success.getByRole("button", { name: "Demo-Termin buchen" }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog).toContainText("Demo-Termin (Cal.com)");
    await expect(dialog).toContainText("Demo über Cal.com");
    await dialog.getByRole("button", { name: "Nächster Monat" }).click();
    await dialog.locator("button[aria-pressed]:not([disabled])").nth(1).click();
    const times = dialog.locator(".grid-cols-3 button");
    await expect(times.first()).toBeVisible();
    booked = (await times.nth(4).textContent()) ?? "";
    await times.nth(4).click();
    await dialog.getByRole("button", { name: "Termin verbindlich buchen" }).click();
    await expect(dialog).toContainText("Termin erfolgreich gebucht!");
  } else {
    await success.getByRole("link", { name: "Demo-Termin buchen" }).click();
    await expect(page.getByText("Demo über Cal.com")).toBeVisible();
    await page.getByRole("link", { name: "Nächster Monat" }).click();
    await page.locator("a[aria-label][href*='tag=']").nth(1).click();
    const labels = page.locator("form label:has(input[name=startTime])");
    await expect(labels.first()).toBeVisible();
    booked = (await labels.nth(3).textContent()) ?? "";
    await labels.nth(3).click();
    await page.getByRole("button", { name: "Termin verbindlich buchen" }).click();
    await expect(page.getByText("Termin erfolgreich gebucht!")).toBeVisible();
  }

  const adminPage = await (
    await browser.newContext({ javaScriptEnabled, locale: "de-DE", timezoneId: "Europe/Berlin" })
  ).newPage();
  await signIn(adminPage, calcomApp.admin, {
    to: `/admin/appointments?search=${encodeURIComponent(name)}`,
    baseUrl: CALCOM_APP_URL,
  });
  const card = adminPage.locator("li", { hasText: name });
  await expect(card).toContainText(`${booked.trim()} Uhr`);
  await expect(card).toContainText(/Termin-ID: cal_[0-9a-f]{12}/);
  await expect(card.getByRole("link", { name: "Bei Cal.com öffnen" })).toHaveAttribute(
    "href",
    /cal\.example\/video\/cal_/,
  );
  await card.getByRole("button", { name: /aktualisieren/i }).click();
  await expect(adminPage.getByText("Termin aktualisiert.")).toBeVisible();
  await expect(adminPage.locator("li", { hasText: name })).toContainText("Bestätigt");
});
