import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { waitForHydration } from "./hydration";
import { findRequest, findRequestByEmail } from "./seed";

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
  return findRequestByEmail(email)!.id;
}

const requestExists = (id: number) => findRequest(id) !== null;

test("the visitor withdraws their own request after a confirmation", async ({
  page,
  javaScriptEnabled,
}) => {
  const id = await submitRequest(page, `rita.${unique()}@example.com`);
  await page.goto("/#history");
  if (javaScriptEnabled) await waitForHydration(page);
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

test("no third-party request before consent; gtag after 'Alle akzeptieren'; withdrawal deletes _ga cookies", async ({
  page,
  javaScriptEnabled,
  baseURL,
}) => {
  const own = new URL(baseURL as string).origin;
  const requests: string[] = [];
  page.on("request", (request) => requests.push(request.url()));
  const thirdParty = () =>
    requests.filter((url) => !url.startsWith(own) && !url.startsWith("data:"));

  await page.goto("/");
  await expect(page.getByRole("region", { name: "Cookie-Einstellungen" })).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(requests.length).toBeGreaterThan(0);
  expect(thirdParty()).toEqual([]);
  await expect(page.locator('script[src*="googletagmanager"]')).toHaveCount(0);

  await page.getByRole("button", { name: "Alle akzeptieren" }).click();
  await expect(page.getByRole("button", { name: "Alle akzeptieren" })).toHaveCount(0);
  if (javaScriptEnabled) {
    // Loaded at once on this page, without a reload.
    await expect
      .poll(thirdParty)
      .toEqual(["https://www.googletagmanager.com/gtag/js?id=G-E2ETEST"]);
  } else {
    // Without JS the browser runs no script; the server now renders it (and only now).
    await expect(page.locator('script[src*="googletagmanager"]')).toHaveCount(1);
  }

  // Google's cookies (as gtag.js would set them); the withdrawal must delete them.
  const host = new URL(own).hostname;
  await page.context().addCookies([
    { name: "_ga", value: "GA1.1.1.2", domain: host, path: "/" },
    { name: "_ga_E2ETEST", value: "GS1.1.3", domain: host, path: "/" },
  ]);
  await page.getByRole("link", { name: "Cookie-Einstellungen" }).click();
  await page.waitForURL(/[?&]cookies=1/);
  const withdraw = page.getByRole("button", { name: "Nur notwendige" });
  if (javaScriptEnabled) {
    // The link loads the page anew: click only once React handles the form (else the no-JS post runs).
    await waitForHydration(page);
    await Promise.all([
      page.waitForResponse((r) => r.url().includes("/preferences/consent") && r.ok()),
      withdraw.click(),
    ]);
  } else {
    await withdraw.click();
  }
  await expect(withdraw).toHaveCount(0);
  const names = (await page.context().cookies()).map((c) => c.name);
  expect(names).toContain("cookie_consent");
  expect(names.filter((n) => n.startsWith("_ga"))).toEqual([]);

  requests.length = 0;
  await page.reload();
  await page.waitForLoadState("networkidle");
  expect(thirdParty()).toEqual([]);
  await expect(page.locator('script[src*="googletagmanager"]')).toHaveCount(0);
});
