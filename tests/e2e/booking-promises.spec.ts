import type { Page } from "@playwright/test";
import { signIn } from "./auth";
import { submitVisitorRequest } from "./fidelity-helpers";
import { expect, test } from "./fixtures";
import { waitForHydration } from "./hydration";

// No promise of a link or a mail that will not come (ADR 342): on a server without SMTP and
// without a video room (the stack's plain server) a booked demo's card says "Videocall" and
// "noch kein Link" without "Link folgt per E-Mail", and its cancel step promises no mail. At 390
// and 1280 px, with and without JS.
const SIZES = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
];
const unique = () => Math.random().toString(36).slice(2, 8);

/** The visitor books the first free time of next month on the server-rendered booking page. */
async function book(page: Page, url: string, id: number, javaScriptEnabled: boolean) {
  await page.goto(`${url}/termin?anfrage=${id}`);
  if (javaScriptEnabled) await waitForHydration(page);
  await page.getByRole("link", { name: "Nächster Monat" }).click();
  await expect(page).toHaveURL(/monat=/);
  await page.locator("a[aria-label][href*='tag=']").first().click();
  const labels = page.locator("form label:has(input[name=startTime])");
  await expect(labels.first()).toBeVisible();
  await labels.first().click();
  await page.getByRole("button", { name: "Termin verbindlich buchen" }).click();
  await expect(page.getByText("Termin erfolgreich gebucht!")).toBeVisible();
  // Without SMTP the visitor is told that no confirmation mail comes.
  await expect(
    page.getByText(/Eine Bestätigung per E-Mail können wir gerade nicht senden/),
  ).toBeVisible();
}

for (const size of SIZES) {
  test(`without SMTP and video room the card promises neither a link nor a mail (${size.width})`, async ({
    page,
    plainApp,
    javaScriptEnabled,
  }, testInfo) => {
    await page.setViewportSize(size);
    const tag = unique();
    const email = `ohne-mail-${tag}@example.com`;
    await submitVisitorRequest(page, `Paula ${tag}`, email, javaScriptEnabled, plainApp.url);
    const login = await page.request.post(`${plainApp.url}/api/admin/auth/login`, {
      data: plainApp.admin,
    });
    const { token } = (await login.json()) as { token: string };
    const found = await page.request.get(
      `${plainApp.url}/api/admin/requests?search=${encodeURIComponent(email)}`,
      { headers: { authorization: `Bearer ${token}` } },
    );
    const list = (await found.json()) as { requests?: { id: number }[] } | { id: number }[];
    const id = (Array.isArray(list) ? list : (list.requests ?? []))[0]?.id as number;
    expect(id).toBeGreaterThan(0);
    await book(page, plainApp.url, id, javaScriptEnabled);

    await signIn(page, plainApp.admin, {
      to: `/admin/appointments?search=${encodeURIComponent(email)}`,
      baseUrl: plainApp.url,
    });
    const card = page.getByTestId("appointment-card").first();
    await expect(card).toContainText(`Paula ${tag}`);
    await expect(card).toContainText("Videocall");
    await expect(card).not.toContainText("Link folgt per E-Mail");
    await expect(card).toContainText(
      "noch kein Link – ein hier eingetragener Link steht auf der Terminseite des Kunden; eine E-Mail geht nicht an ihn.",
    );
    await card.getByRole("link", { name: /absagen$/ }).click();
    const question = page.getByText(/wirklich absagen\?/);
    await expect(question).toBeInViewport();
    await expect(question).toContainText("Eine E-Mail geht dabei nicht an den Kunden.");
    await expect(question).not.toContainText("per E-Mail.");
    await page.screenshot({ path: testInfo.outputPath(`no-smtp-card-${size.width}.png`) });
    await page.getByRole("button", { name: "Ja, Termin absagen" }).click();
    // The toast says what happened, and nothing about a mail.
    const toast = page.getByText("Termin abgesagt.", { exact: true });
    await expect(toast).toBeVisible();
  });
}
