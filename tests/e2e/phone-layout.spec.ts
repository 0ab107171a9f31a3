import { randomBytes } from "node:crypto";
import type { Locator } from "@playwright/test";
import { eq } from "drizzle-orm";
import { db } from "~/server/platform/db.server";
import { requests } from "~db/schema";
import { submitVisitorRequest, withConfiguration } from "./fidelity-helpers";
import { expect, test } from "./fixtures";

const PHONE = { width: 390, height: 844 };
test.use({ viewport: PHONE });

type Box = { x: number; y: number; width: number; height: number };
const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width - 1 &&
  b.x < a.x + a.width - 1 &&
  a.y < b.y + b.height - 1 &&
  b.y < a.y + a.height - 1;

async function boxes(locator: Locator): Promise<Box[]> {
  const found: Box[] = [];
  for (const element of await locator.all()) {
    const box = await element.boundingBox();
    if (box && box.width > 0 && box.height > 0) found.push(box);
  }
  return found;
}

test("landing at 390 px: header on one line; banner + header + cookie bar ≤ a quarter of the screen", async ({
  page,
  javaScriptEnabled,
}) => {
  const tag = randomBytes(3).toString("hex");
  await withConfiguration(
    { infoBanner: { enabled: true, text: `Neu: Termine auch abends ${tag}` } },
    async () => {
      // With a history, the header also shows "Meine Anfragen".
      await submitVisitorRequest(
        page,
        `Handy ${tag}`,
        `handy-${tag}@example.com`,
        javaScriptEnabled,
      );
      await page.context().clearCookies({ name: "cookie_consent" });
      await page.goto("/");
      const header = page.locator("header").first();
      const controls = await boxes(
        header.locator("nav > a, nav > div > a, nav > div > form button"),
      );
      expect(controls.length).toBeGreaterThanOrEqual(3);
      // One line: every control is centred on the same row, none wraps its text, all on screen.
      const centre = (b: Box) => b.y + b.height / 2;
      const row = centre(controls[0] as Box);
      for (const b of controls) {
        expect(Math.abs(centre(b) - row)).toBeLessThan(4);
        expect(b.height, "a wrapped button is taller than one line").toBeLessThan(48);
        expect(b.x + b.width).toBeLessThanOrEqual(PHONE.width);
      }
      for (let i = 0; i < controls.length; i++)
        for (let j = i + 1; j < controls.length; j++)
          expect(overlap(controls[i] as Box, controls[j] as Box)).toBe(false);
      const banner = await page.getByRole("region", { name: "Hinweis" }).boundingBox();
      const headerBox = await header.boundingBox();
      const cookie = await page.getByRole("region", { name: "Cookie-Einstellungen" }).boundingBox();
      expect(banner && headerBox && cookie).toBeTruthy();
      const used = (banner?.height ?? 0) + (headerBox?.height ?? 0) + (cookie?.height ?? 0);
      expect(
        used,
        `banner ${banner?.height} + header ${headerBox?.height} + cookie ${cookie?.height}`,
      ).toBeLessThanOrEqual(PHONE.height / 4);
      await page.screenshot({ path: test.info().outputPath("landing-390.png") });
    },
  );
});

test("admin requests at 390 px: name, status and date stacked without overlap", async ({
  page,
  loginAsNew,
  seed,
}) => {
  const tag = randomBytes(3).toString("hex");
  await seed.request({
    name: `Sehr lange Kundin mit Doppelnamen ${tag}`,
    email: `lang-${tag}@example.com`,
  });
  await seed.request({ name: `Kurz ${tag}`, email: `kurz-${tag}@example.com` });
  await loginAsNew(page);
  await page.goto(`/admin/requests?q=${tag}`);
  const rows = page.getByTestId("request-row");
  await expect(rows).toHaveCount(2);
  for (const row of await rows.all()) {
    const parts = [
      ...(await boxes(row.locator("[data-request-name]"))),
      ...(await boxes(row.locator("[data-row-part=meta] > *"))),
      ...(await boxes(row.locator("[data-row-part=controls] > *"))),
    ];
    expect(parts.length).toBeGreaterThanOrEqual(5);
    for (let i = 0; i < parts.length; i++) {
      const a = parts[i] as Box;
      expect(a.x + a.width, "inside the screen").toBeLessThanOrEqual(PHONE.width);
      for (let j = i + 1; j < parts.length; j++) expect(overlap(a, parts[j] as Box)).toBe(false);
    }
  }
  await page.screenshot({ path: test.info().outputPath("requests-390.png"), fullPage: true });
});

test("admin requests at 390 px: filters behind one button, applied on change; summaries cut at a word", async ({
  page,
  loginAsNew,
  seed,
  javaScriptEnabled,
}) => {
  const tag = randomBytes(3).toString("hex");
  const id = await seed.request({ name: `Filter ${tag}`, email: `filter-${tag}@example.com` });
  // A long summary (written before the AI job could, which only fills empty ones).
  const summary = `Die Bäckerei ${tag} möchte eine Anwendung für Vorbestellungen, Lieferungen, Kundenkarten und Auswertungen haben, damit die Filialen weniger telefonieren müssen und am Morgen alles bereitliegt.`;
  db().update(requests).set({ summary }).where(eq(requests.id, id)).run();
  await loginAsNew(page);
  await page.goto(`/admin/requests?q=${tag}`);

  const row = page.getByTestId("request-row");
  await expect(row).toHaveCount(1);
  const shown = (await row.locator("[data-request-summary]").textContent()) ?? "";
  expect(shown.endsWith("…"), shown).toBe(true);
  const kept = shown.slice(0, -1);
  // A prefix of the summary that ends at a whole word.
  expect(summary.startsWith(kept)).toBe(true);
  expect(summary.charAt(kept.length)).toMatch(/[\s,.]/);
  expect(kept.length).toBeLessThanOrEqual(140);

  // Collapsed: one "Filter" button (with the count of active filters), the fields hidden.
  const toggle = page.locator("details.filter-panel > summary");
  await expect(toggle).toBeVisible();
  await expect(toggle).toContainText("1 aktiv");
  const status = page.getByLabel("Status", { exact: true });
  await expect(status).toBeHidden();
  const toggleBox = await toggle.boundingBox();
  expect(toggleBox?.height ?? 99).toBeLessThan(56);
  await toggle.click();
  await expect(status).toBeVisible();
  for (const box of await boxes(page.getByRole("search").locator("select, input"))) {
    expect(box.x + box.width, "inside the screen").toBeLessThanOrEqual(PHONE.width);
  }

  // A changed drop-down applies at once with JS; without JS through the submit button.
  await status.selectOption("New");
  if (!javaScriptEnabled) await page.getByRole("button", { name: "Filter anwenden" }).click();
  await expect(page).toHaveURL(/status=New/);
  await expect(page).toHaveURL(new RegExp(`q=${tag}`));
  await expect(row).toHaveCount(1);
  await page.screenshot({ path: test.info().outputPath("requests-filters-390.png") });
});

test("admin requests on a wide screen: the filters are open without a toggle", async ({
  page,
  loginAsNew,
}) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await loginAsNew(page);
  await page.goto("/admin/requests");
  await expect(page.getByLabel("Status", { exact: true })).toBeVisible();
  await expect(page.getByLabel("Sortierung")).toBeVisible();
  await expect(page.locator("details.filter-panel > summary")).toBeHidden();
});

test("admin header at 390 px: logo, public link, theme and logout on one line, none wrapped @static", async ({
  page,
  loginAsNew,
}) => {
  await loginAsNew(page);
  await page.goto("/admin/dashboard");
  const header = page.locator("header").first();
  const controls = await boxes(header.locator("a[href='/'], form button"));
  expect(controls.length).toBeGreaterThanOrEqual(3);
  const centre = (b: Box) => b.y + b.height / 2;
  const row = centre(controls[0] as Box);
  for (const b of controls) {
    expect(Math.abs(centre(b) - row)).toBeLessThan(4);
    expect(b.height, "a wrapped button is taller than one line").toBeLessThan(48);
    expect(b.x + b.width).toBeLessThanOrEqual(PHONE.width);
  }
  for (let i = 0; i < controls.length; i++)
    for (let j = i + 1; j < controls.length; j++)
      expect(overlap(controls[i] as Box, controls[j] as Box)).toBe(false);
  await page.screenshot({ path: test.info().outputPath("admin-header-390.png") });
});
