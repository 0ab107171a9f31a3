import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import type { Attribution } from "~/lib/attribution";
import { loginAs } from "./auth";
import { addSolvedAltcha } from "./fidelity-helpers";
import { expect, type SeedApi, test } from "./fixtures";
import { waitForHydration } from "./hydration";

// ADR 215, JS on and off at 390×844: clicking the cookie bar, the theme switch and in-page
// links never changes where the visitor came from. The stored request keeps the landing document's
// path and external referrer (ADR 215), checked through the admin API's request JSON.
test.use({ viewport: { width: 390, height: 844 } });

const GOOGLE = "https://www.google.com/";

async function land(page: Page, marker: string, javaScriptEnabled: boolean) {
  await page.goto(`/?utm_source=${marker}&seite=preise`, { referer: GOOGLE });
  if (javaScriptEnabled) await waitForHydration(page);
}

/** Clicks a button whose JS path is a fetcher post followed by the loaders' revalidation (`.data`). */
async function clickPosting(page: Page, name: string, path: string, javaScriptEnabled: boolean) {
  const button = page.getByRole("button", { name });
  if (!javaScriptEnabled) {
    await button.click();
    return;
  }
  const revalidated = page.waitForResponse((r) => /\.data(\?|$)/.test(r.url()) && r.ok());
  await Promise.all([
    page.waitForResponse((r) => r.url().includes(path) && r.ok()),
    revalidated,
    button.click(),
  ]);
}

async function submit(page: Page, marker: string) {
  await page.getByLabel("Name").fill(`Herkunft ${marker}`);
  await page.getByLabel("E-Mail").fill(`${marker}@example.com`);
  await page.getByLabel("Telefon").fill(`+49 30 ${String(Date.now()).slice(-7)}`);
  await page
    .getByLabel("Beschreibe dein Unternehmen")
    .fill("Ein Handwerksbetrieb mit zwölf Leuten in Köln");
  // Without JS a solved proof of work (as the widget would send): the normal flow, so the admin
  // list shows the request (a quarantined one is held in "Prüfen", ADR 252).
  if (test.info().project.name === "js-off") await addSolvedAltcha(page);
  await page.getByRole("button", { name: "Anfrage senden" }).click();
  await expect(page.getByTestId("submission-success")).toContainText(
    `Vielen Dank, Herkunft ${marker}!`,
  );
}

/** The stored attribution of the one request with this utm_source (admin API, request JSON). */
async function storedAttribution(page: Page, seed: SeedApi, marker: string) {
  await page.context().clearCookies();
  await loginAs(page, await seed.admin());
  const res = await page.request.get(`/api/admin/requests?source=${marker}`);
  expect(res.status()).toBe(200);
  const { requests } = (await res.json()) as { requests: { attribution: Attribution }[] };
  expect(requests).toHaveLength(1);
  return requests[0]?.attribution;
}

const expected = (marker: string): Attribution => ({
  source: marker,
  medium: null,
  campaign: null,
  referrer: "https://www.google.com",
  landingPath: "/?seite=preise",
});

test("'Nur notwendige', theme switch and in-page navigation keep the landing path and referrer", async ({
  page,
  seed,
  javaScriptEnabled,
}) => {
  const marker = `bn${randomBytes(4).toString("hex")}`;
  await land(page, marker, javaScriptEnabled);
  await clickPosting(page, "Nur notwendige", "/preferences/consent", javaScriptEnabled);
  await expect(page.getByRole("button", { name: "Alle akzeptieren" })).toHaveCount(0);
  // Nothing about the visit is stored on the device without consent.
  expect((await page.context().cookies()).map((c) => c.name)).not.toContain("first_touch");
  await clickPosting(page, "Dunklen Modus aktivieren", "/preferences/theme", javaScriptEnabled);
  await expect(page.locator("html")).toHaveClass(/dark/);
  await page.getByRole("link", { name: "Jetzt loslegen" }).click();
  await expect(page.getByRole("heading", { name: "Erzähl uns von deiner Idee" })).toBeInViewport();
  await expect(page.locator('#contact-form input[name="landingPath"]')).toHaveValue(
    "/?seite=preise",
  );
  await expect(page.locator('#contact-form input[name="referrer"]')).toHaveValue(
    "https://www.google.com",
  );
  await submit(page, marker);
  await page.screenshot({ path: test.info().outputPath("attribution-after-banner.png") });
  expect(await storedAttribution(page, seed, marker)).toEqual(expected(marker));
});

test("'Alle akzeptieren' remembers the landing document as first touch, across a new page load", async ({
  page,
  seed,
  javaScriptEnabled,
}) => {
  const marker = `ba${randomBytes(4).toString("hex")}`;
  await land(page, marker, javaScriptEnabled);
  await clickPosting(page, "Alle akzeptieren", "/preferences/consent", javaScriptEnabled);
  await expect(page.getByRole("button", { name: "Nur notwendige" })).toHaveCount(0);
  expect((await page.context().cookies()).map((c) => c.name)).toContain("first_touch");
  // A new document from our own page (the footer link): its URL and Referer are not the landing.
  await page.getByRole("link", { name: "Cookie-Einstellungen" }).click();
  await expect(page).toHaveURL(/[?&]cookies=1/);
  if (javaScriptEnabled) await waitForHydration(page);
  await clickPosting(page, "Alle akzeptieren", "/preferences/consent", javaScriptEnabled);
  await expect(page.getByRole("button", { name: "Nur notwendige" })).toHaveCount(0);
  await submit(page, marker);
  expect(await storedAttribution(page, seed, marker)).toEqual(expected(marker));
});
