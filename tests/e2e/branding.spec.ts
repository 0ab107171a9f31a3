import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { waitForHydration } from "./hydration";
import { switchToDarkTheme } from "./theme";

// Issue 29: the agency puts its name, colour, a question and its logo on the product in the
// settings ("Erscheinungsbild und Inhalte"), with and without JavaScript, and sees them on the
// landing page at 390 and 1280 px; the new card and the recoloured landing page are axe-clean.

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
test.describe.configure({ timeout: 180_000 });

/** A 16×16 PNG (solid green), small enough for the 256 KB limit. */
const LOGO_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAFklEQVR4nGPgjpUjCTGMahjVMHw1AAAsE4YBU5gAAAAAAABJRU5ErkJggg==",
  "base64",
);

async function axeClean(page: Page, include?: string) {
  const builder = new AxeBuilder({ page });
  if (include) builder.include(include);
  const results = await builder.analyze();
  expect(
    results.violations.map((v) => `${v.id} (${v.nodes.length}) ${v.nodes[0]?.target}`),
  ).toEqual([]);
}

test("brand: name, colour, a question and a logo from the settings on the landing page", async ({
  page,
  browser,
  loginAsNew,
  seed,
  javaScriptEnabled,
}, testInfo) => {
  seed.configuration({});
  await page.setViewportSize(PHONE);
  await loginAsNew(page);
  await page.goto("/admin/settings#branding");
  if (javaScriptEnabled) await waitForHydration(page);
  const card = page.locator("#branding");
  await expect(card.getByRole("heading", { name: "Erscheinungsbild und Inhalte" })).toBeVisible();
  await expect(card.getByLabel("Name", { exact: true })).toHaveValue("Anfrage-Portal");

  await card.getByLabel("Name", { exact: true }).fill("Agentur Süd");
  // A colour white text is unreadable on is refused at the field, in German.
  const color = card.getByLabel(/^Hauptfarbe/);
  await color.fill("#fde047");
  await page.getByRole("button", { name: "Konfiguration speichern" }).click();
  await expect(card.getByText(/Kontrastverhältnis 4,5:1/)).toBeVisible();
  await expect(card.getByLabel(/^Hauptfarbe/)).toBeFocused();
  await card.getByLabel(/^Hauptfarbe/).fill("#0b5d1e");
  await card.getByLabel("Frage 1", { exact: true }).fill("Wie schnell seid ihr wirklich?");
  await page.getByRole("button", { name: "Konfiguration speichern" }).click();
  await expect(page.getByText("Konfiguration erfolgreich gespeichert!")).toBeVisible();
  await expect(page.locator("#branding").getByLabel("Name", { exact: true })).toHaveValue(
    "Agentur Süd",
  );

  // The logo: its own form, without JS too.
  await page.getByLabel("Neues Logo").setInputFiles({
    name: "logo.png",
    mimeType: "image/png",
    buffer: LOGO_PNG,
  });
  await page.getByRole("button", { name: "Logo hochladen" }).click();
  await expect(page.getByText("Logo gespeichert.")).toBeVisible();
  await expect(page.getByRole("img", { name: "Aktuelles Logo" })).toBeVisible();
  await page.locator("#branding").scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath("settings-branding-390.png") });

  // The new card is axe-clean (axe needs the page's scripts: JS project), light and dark.
  if (javaScriptEnabled) {
    await axeClean(page, "#branding");
    await axeClean(page, "#branding-logo");
  }

  // The visitor sees the brand at 390 and 1280 px.
  const visitor = await (await browser.newContext({ javaScriptEnabled })).newPage();
  for (const size of [PHONE, DESKTOP]) {
    await visitor.setViewportSize(size);
    await visitor.goto("/");
    const header = visitor.locator("header").first();
    await expect(header.getByRole("link", { name: /Agentur Süd/ })).toBeVisible();
    await expect(header.locator('img[src^="/branding/logo?v="]')).toBeVisible();
    await expect(visitor).toHaveTitle(/Agentur Süd/);
    const cta = visitor.getByRole("link", { name: "Jetzt Idee einreichen" });
    await expect(cta).toBeInViewport();
    await expect(cta).toHaveCSS("background-color", "rgb(11, 93, 30)");
    const question = visitor.getByText("Wie schnell seid ihr wirklich?");
    await question.scrollIntoViewIfNeeded();
    await expect(question).toBeInViewport();
    await expect(visitor.locator("footer")).toContainText("Agentur Süd");
    await visitor.screenshot({
      path: testInfo.outputPath(`landing-brand-${size.width}.png`),
      fullPage: size.width === DESKTOP.width,
    });
  }

  if (javaScriptEnabled) {
    // The landing page with the custom colour, light and dark, is axe-clean.
    await visitor.goto("/");
    await axeClean(visitor);
    await switchToDarkTheme(visitor);
    await visitor.goto("/");
    await expect(visitor.locator("html")).toHaveClass(/dark/);
    await axeClean(visitor);
    await visitor.screenshot({ path: testInfo.outputPath("landing-brand-dark.png") });
    // The settings card in dark mode (the admin's own choice).
    await switchToDarkTheme(page);
    await page.goto("/admin/settings#branding");
    await expect(page.locator("html")).toHaveClass(/dark/);
    await axeClean(page, "#branding");
  }
  await visitor.context().close();
});
