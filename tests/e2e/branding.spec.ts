import type { Locator, Page } from "@playwright/test";
import { axeOn } from "./axe";
import { expect, test } from "./fixtures";
import { switchToDarkTheme } from "./theme";

// ADRs 268, 269: the agency puts its name, colour, a question and its logo on the product in the
// settings ("Erscheinungsbild und Inhalte"), with and without JavaScript, and sees them on the
// landing page at 390 and 1280 px; the new card and the recoloured landing page are axe-clean.
// A wide wordmark keeps its proportions in the header, toasts never pile up over the field they
// are about, "Zurücksetzen" and removing a question leave the focus where the admin works, the
// colour shows as a swatch.

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
test.describe.configure({ timeout: 180_000 });

/** A 16×16 PNG (solid green), small enough for the 256 KB limit. */
const LOGO_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAFklEQVR4nGPgjpUjCTGMahjVMHw1AAAsE4YBU5gAAAAAAABJRU5ErkJggg==",
  "base64",
);

async function axeClean(page: Page, include?: string) {
  const builder = axeOn(page);
  if (include) builder.include(include);
  const results = await builder.analyze();
  expect(
    results.violations.map((v) => `${v.id} (${v.nodes.length}) ${v.nodes[0]?.target}`),
  ).toEqual([]);
}

test("brand: name, colour, a question and a logo from the settings on the landing page", async ({
  page,
  browser,
  openSettings,
  javaScriptEnabled,
}, testInfo) => {
  const card = await openSettings(page, { section: "branding", viewport: PHONE });
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

  // The visitor sees the brand at 390 and 1280 px, each on a first visit: in a tab of its own, as
  // the landing page's ScrollRestoration (sessionStorage, per tab, with JS) put a second visit of
  // "/" in the same tab back at the question scrolled to at 390 px, below the hero's button.
  const visitorContext = await browser.newContext({ javaScriptEnabled });
  for (const size of [PHONE, DESKTOP]) {
    const visitor = await visitorContext.newPage();
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
    await visitor.close();
  }

  if (javaScriptEnabled) {
    // The landing page with the custom colour, light and dark, is axe-clean.
    const visitor = await visitorContext.newPage();
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
  await visitorContext.close();
});

const save = (page: Page) => page.getByRole("button", { name: "Konfiguration speichern" }).click();

/** Whether two boxes overlap (the toast over the field's label). */
async function overlaps(a: Locator, b: Locator) {
  const [x, y] = [await a.boundingBox(), await b.boundingBox()];
  if (!x || !y) return false;
  return x.x < y.x + y.width && y.x < x.x + x.width && x.y < y.y + y.height && y.y < x.y + x.height;
}

test("a 4:1 wordmark logo is shown at its proportions in the header (390 and 1280)", async ({
  page,
  browser,
  openSettings,
  javaScriptEnabled,
}, testInfo) => {
  await openSettings(page, { section: "branding", viewport: PHONE });
  const wide = await page.evaluate(() => {
    const c = document.createElement("canvas");
    c.width = 400;
    c.height = 100;
    const g = c.getContext("2d") as CanvasRenderingContext2D;
    g.fillStyle = "#0b5d1e";
    g.fillRect(0, 0, 400, 100);
    g.fillStyle = "#fff";
    g.font = "bold 60px sans-serif";
    g.fillText("AGENTUR", 20, 75);
    return c.toDataURL("image/png").split(",")[1];
  });
  await page.getByLabel("Neues Logo").setInputFiles({
    name: "wide.png",
    mimeType: "image/png",
    buffer: Buffer.from(wide, "base64"),
  });
  await page.getByRole("button", { name: "Logo hochladen" }).click();
  await expect(page.getByText("Logo gespeichert.")).toBeVisible();

  const visitor = await (await browser.newContext({ javaScriptEnabled })).newPage();
  for (const size of [PHONE, DESKTOP]) {
    await visitor.setViewportSize(size);
    await visitor.goto("/");
    const header = visitor.locator("header").first();
    const logo = header.locator('img[src^="/branding/logo?v="]');
    await expect(logo).toBeVisible();
    const box = await logo.boundingBox();
    expect(box?.width, `logo width at ${size.width}`).toBeGreaterThan(100);
    expect(Math.round((box?.width ?? 0) / (box?.height ?? 1))).toBe(4);
    // The header keeps one line: the call to action stays beside the logo, in view.
    const cta = header.getByRole("link", { name: "Jetzt loslegen" });
    await expect(cta).toBeInViewport();
    const ctaBox = await cta.boundingBox();
    expect(
      Math.abs((ctaBox?.y ?? 0) + (ctaBox?.height ?? 0) / 2 - (box?.y ?? 0) - 16),
    ).toBeLessThan(12);
    await visitor.screenshot({
      path: testInfo.outputPath(`wide-logo-${size.width}.png`),
      clip: { x: 0, y: 0, width: size.width, height: 90 },
    });
  }
  await visitor.context().close();
  // The admin header too: the logo beside "Admin-Bereich", which still fits on a phone.
  const adminHeader = page.locator("header").first();
  const adminLogo = adminHeader.locator('img[src^="/branding/logo?v="]');
  // On a phone "Admin-Bereich" keeps its width (the logo the square's); from 640 px the logo its own.
  await page.goto("/admin/settings");
  await page.screenshot({
    path: testInfo.outputPath("wide-logo-admin-390.png"),
    clip: { x: 0, y: 0, width: 390, height: 120 },
  });
  const area = adminHeader.getByText("Admin-Bereich");
  expect(await area.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  await page.setViewportSize(DESKTOP);
  expect((await adminLogo.boundingBox())?.width).toBeGreaterThan(100);
  await page.screenshot({
    path: testInfo.outputPath("wide-logo-admin-1280.png"),
    clip: { x: 0, y: 0, width: 1280, height: 120 },
  });
});

test("toasts: a refused colour's toast leaves its label clear, a later save ends it, no pile (390)", async ({
  page,
  openSettings,
}, testInfo) => {
  const card = await openSettings(page, { section: "branding", viewport: PHONE });
  const color = card.getByLabel(/^Hauptfarbe/);
  const toasts = page.locator("[data-toast]");
  // Refused three times in a row: one toast about it, not three.
  for (let n = 0; n < 3; n++) {
    await card.getByLabel(/^Hauptfarbe/).fill("#fde047");
    await save(page);
    await expect(card.getByText(/Kontrastverhältnis 4,5:1/)).toBeVisible();
  }
  await expect(color).toBeFocused();
  await expect(toasts.filter({ hasText: "nicht gespeichert" })).toHaveCount(1);
  const toast = toasts.filter({ hasText: "nicht gespeichert" });
  await expect(toast).toBeInViewport();
  const label = card.locator('label[for="branding-primaryColor"]');
  await expect(label).toBeInViewport();
  await expect(color).toBeInViewport();
  expect(await overlaps(toast, label), "the toast covers the label").toBe(false);
  expect(await overlaps(toast, color), "the toast covers the field").toBe(false);
  await page.screenshot({ path: testInfo.outputPath("refused-colour-390.png") });

  await card.getByLabel(/^Hauptfarbe/).fill("#0b5d1e");
  await save(page);
  await expect(page.getByText("Konfiguration erfolgreich gespeichert!")).toBeVisible({
    timeout: 30_000,
  });
  await expect(toasts.filter({ hasText: "nicht gespeichert" })).toHaveCount(0);
  expect(await toasts.count()).toBeLessThanOrEqual(3);
  await page.screenshot({ path: testInfo.outputPath("saved-390.png") });
});

test("the colour field shows its colour as a swatch", async ({
  page,
  openSettings,
  seed,
  javaScriptEnabled,
}) => {
  seed.configuration({ branding: { primaryColor: "#0b5d1e" } as never });
  const card = await openSettings(page, { section: "branding", viewport: PHONE });
  const swatch = card.getByTestId("color-swatch");
  await expect(swatch).toBeVisible();
  await expect(swatch).toHaveCSS("background-color", "rgb(11, 93, 30)");
  if (javaScriptEnabled) {
    await card.getByLabel(/^Hauptfarbe/).fill("#1e3a8a");
    await expect(swatch).toHaveCSS("background-color", "rgb(30, 58, 138)");
  }
});

test("Zurücksetzen keeps the text in view and the focus on its button (390)", async ({
  page,
  openSettings,
}, testInfo) => {
  const card = await openSettings(page, { section: "branding", viewport: PHONE });
  const subtitle = card.getByLabel("Unterzeile");
  await subtitle.fill("Eigene Unterzeile");
  const reset = card.getByRole("button", { name: /Zurücksetzen \(Unterzeile/ });
  await reset.click();
  await expect(card.getByLabel("Unterzeile")).toHaveValue(/^Beschreib uns dein Vorhaben/);
  await expect(reset).toBeFocused();
  await expect(reset).toBeInViewport();
  await expect(card.getByLabel("Unterzeile")).toBeInViewport();
  await page.screenshot({ path: testInfo.outputPath("after-reset-390.png") });
});

test("removing a question focuses its neighbour, the heading once the list is empty (390)", async ({
  page,
  openSettings,
  seed,
}, testInfo) => {
  seed.configuration({
    branding: {
      faq: [
        { question: "Erste Frage?", answer: "Eins." },
        { question: "Zweite Frage?", answer: "Zwei." },
      ],
    } as never,
  });
  const card = await openSettings(page, { section: "branding", viewport: PHONE });
  // The first one: the next question (now "Frage 1") takes the focus.
  await card.getByRole("button", { name: "Frage „Erste Frage?“ entfernen" }).click();
  const next = card.getByLabel("Frage 1", { exact: true });
  await expect(next).toHaveValue("Zweite Frage?");
  await expect(next).toBeFocused();
  await expect(next).toBeInViewport();
  await page.screenshot({ path: testInfo.outputPath("faq-removed-390.png") });
  // The last one: the list's heading.
  await card.getByRole("button", { name: "Frage „Zweite Frage?“ entfernen" }).click();
  const heading = card.getByText("Häufige Fragen (0)");
  await expect(heading).toBeVisible();
  await expect(heading).toBeFocused();
  await expect(heading).toBeInViewport();
});
