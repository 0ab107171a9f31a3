import { loginAs } from "./auth";
import { expect, test, waitForMail } from "./fixtures";
import { waitForHydration } from "./hydration";
import { passStepUp } from "./step-up-helpers";

const marker = () => Math.random().toString(16).slice(2, 10);

test("preparation: an unrelated change in another tab is no conflict; a real one keeps the draft", async ({
  page,
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
  await loginAs(page, await seed.admin());
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

test("password recovery without SMTP: the forgot page says so; another admin hands out a one-time reset link", async ({
  page,
  browser,
  javaScriptEnabled,
  calcomApp,
  seed,
}) => {
  // The stack's second server runs without SMTP_URL.
  await page.goto(`${calcomApp.url}/admin/forgot-password`);
  await expect(page.getByTestId("no-smtp-notice")).toContainText(
    "kein E-Mail-Versand (SMTP) eingerichtet",
  );
  await expect(page.getByTestId("no-smtp-notice")).toContainText("npm run admin:reset-password");
  // With SMTP (the main server) the page says nothing of the kind.
  await page.goto("/admin/forgot-password");
  await expect(page.getByRole("button", { name: "Link senden" })).toBeVisible();
  await expect(page.getByTestId("no-smtp-notice")).toHaveCount(0);

  const helper = await seed.admin();
  const locked = await seed.admin();
  await loginAs(page, helper);
  await page.goto("/admin/users");
  if (javaScriptEnabled) await waitForHydration(page);
  await page
    .getByRole("button", { name: `Passwort-Reset-Link erzeugen: ${locked.username}` })
    .click();
  // The helper confirms with the password (ADR 315). This server has SMTP: the link goes to the
  // colleague's mailbox, never to the helper (without SMTP it is shown: accounts-golive.spec.ts).
  await passStepUp(page, helper.password);
  await expect(
    page
      .getByRole("region", { name: "Benachrichtigungen" })
      .getByText(`per E-Mail an ${locked.username} (${locked.email}) gesendet`),
  ).toBeVisible();
  await expect(page.getByTestId("reset-link-notice")).toHaveCount(0);
  const mail = await waitForMail(locked.email, /Zurücksetzen Ihres Passworts/);
  const link = mail.text.match(/https?:\/\/\S+\/admin\/reset-password\?token=[\w%-]+/)?.[0] ?? "";
  expect(link).toMatch(/\/admin\/reset-password\?token=/);

  const newPassword = `zurueck-${Math.random().toString(16).slice(2, 10)}`;
  const other = await browser.newContext({ javaScriptEnabled });
  const lockedPage = await other.newPage();
  const url = new URL(link);
  await lockedPage.goto(`${url.pathname}${url.search}`);
  if (javaScriptEnabled) await waitForHydration(lockedPage);
  await lockedPage.getByLabel("Neues Passwort").fill(newPassword);
  await lockedPage.getByLabel("Passwort bestätigen").fill(newPassword);
  await lockedPage.getByRole("button", { name: "Passwort zurücksetzen" }).click();
  await expect(lockedPage.getByText("Ihr Passwort wurde erfolgreich zurückgesetzt.")).toBeVisible();
  await loginAs(lockedPage, { username: locked.username, password: newPassword });
  await expect(lockedPage).toHaveURL(/\/admin\/dashboard$/);
  await other.close();
});

test("full-screen request view: focus moves in, stays inside, the page behind is inert; Escape returns it", async ({
  page,
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
  await loginAs(page, await seed.admin());
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

test("upload settings: per file is clamped to the total; the landing hint says '1 Datei'", async ({
  page,
  browser,
  javaScriptEnabled,
  seed,
}) => {
  seed.configuration({});
  await loginAs(page, await seed.admin());
  await page.goto("/admin/settings");
  if (javaScriptEnabled) await waitForHydration(page);
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
