import type { Page } from "@playwright/test";
import { DEFAULT_CONFIGURATION } from "~/lib/configuration";
import { requestIdOf, submitVisitorRequest } from "./fidelity-helpers";
import { expect, test } from "./fixtures";
import { waitForHydration } from "./hydration";
import { bookAndOpenManageLink } from "./manage-helpers";

// ADR 216, mostly without JavaScript, at 390×844 and 1280×800: a refused file is named in the
// error summary at the top of the answer; a day on the booking page opens at its times; the
// invalid-link page says how to reach the agency; the booking and manage pages carry the site
// header. Each asserts what the visitor sees (in the viewport, focused).

const VIEWPORTS = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 800 },
];
const unique = () => Math.random().toString(36).slice(2, 8);

/** The landing page's site header: brand, theme switch, "Jetzt loslegen" to the contact form. */
async function expectSiteHeader(page: Page) {
  const header = page.getByRole("banner");
  await expect(header).toBeInViewport();
  await expect(header.getByRole("link", { name: /Anfrage-Portal/ })).toHaveAttribute("href", "/");
  await expect(header.getByRole("link", { name: "Jetzt loslegen" })).toHaveAttribute(
    "href",
    "/#contact",
  );
  await expect(header.getByRole("button", { name: /Modus aktivieren/ }).first()).toBeVisible();
}

for (const viewport of VIEWPORTS) {
  test.describe(`${viewport.name} ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test("a too-large file is named in the error summary at the top of the answer, linked to the field @no-js-only", async ({
      page,
      seed,
    }) => {
      seed.configuration({
        uploadSettings: { ...DEFAULT_CONFIGURATION.uploadSettings, maxFileSizeMB: 1 },
      });
      await page.goto("/");
      await page.getByRole("button", { name: "Nur notwendige" }).click();
      await page.getByLabel("Name").fill(`Groß ${unique()}`);
      await page.getByLabel("E-Mail").fill(`gross-${unique()}@example.com`);
      await page.getByLabel("Telefon").fill("+49 30 555 1234");
      await page
        .getByLabel("Beschreibe dein Unternehmen")
        .fill("Ein Handwerksbetrieb mit zwölf Leuten in Köln");
      await page.getByLabel("Dateien anhängen (optional)").setInputFiles({
        name: "gross.pdf",
        mimeType: "application/pdf",
        buffer: Buffer.alloc(1024 * 1024 + 10, 1),
      });
      await page.getByRole("button", { name: "Anfrage senden" }).click();

      const summary = page.getByTestId("contact-error-summary");
      await expect(summary).toBeInViewport({ ratio: 1 });
      await expect(summary).toHaveAttribute("role", "alert");
      const link = summary.getByRole("link", {
        name: "gross.pdf: Datei zu groß (1 MB). Maximum: 1 MB",
      });
      await expect(link).toHaveAttribute("href", "#contact-attachments");
      // What was typed is kept; the field still shows its own message.
      await expect(page.getByLabel("Telefon")).toHaveValue("+49 30 555 1234");
      await page.screenshot({ path: test.info().outputPath(`file-summary-${viewport.name}.png`) });
      await link.click();
      await expect(page.getByLabel("Dateien anhängen (optional)")).toBeInViewport();
      await expect(
        page.getByRole("alert").filter({ hasText: "gross.pdf: Datei zu groß" }).last(),
      ).toBeInViewport();
    });

    test("booking page: a day opens at its times (anchor, focus); site header on booking and manage pages", async ({
      page,
      javaScriptEnabled,
    }) => {
      test.setTimeout(90_000);
      const tag = unique();
      const who = { name: `Tina Tag ${tag}`, email: `tina-${tag}@example.com` };
      await submitVisitorRequest(page, who.name, who.email, javaScriptEnabled);
      await page.goto(`/termin?anfrage=${requestIdOf(who.email)}`);
      if (javaScriptEnabled) await waitForHydration(page);
      await expectSiteHeader(page);
      // The visitor's own requests are one tap away, as on the landing page.
      await expect(
        page.getByRole("banner").getByRole("link", { name: "Meine Anfragen" }),
      ).toHaveAttribute("href", "/#history");
      await page.getByRole("link", { name: "Nächster Monat" }).click();
      await expect(page).toHaveURL(/monat=/);
      await page.locator("a[aria-label][href*='tag=']").first().click();
      await expect(page).toHaveURL(/tag=[\d-]+#zeiten$/);
      const heading = page.locator("h2#zeiten");
      await expect(heading).toBeInViewport({ ratio: 1 });
      const times = page.locator("form label:has(input[name=startTime])");
      await expect(times.first()).toBeInViewport({ ratio: 1 });
      if (javaScriptEnabled) await expect(heading).toBeFocused();
      // Without JS the reloaded document opens at the heading (the fragment's target).
      else await expect.poll(() => heading.evaluate((el) => el.matches(":target"))).toBe(true);
      // Either way the keyboard goes on from the heading to the first time.
      await page.keyboard.press("Tab");
      await expect(page.locator("input[name=startTime]").first()).toBeFocused();
      // Not hidden under the sticky header.
      const headerBox = await page.getByRole("banner").boundingBox();
      const headingBox = await heading.boundingBox();
      expect((headingBox?.y ?? 0) + 1).toBeGreaterThanOrEqual(
        (headerBox?.y ?? 0) + (headerBox?.height ?? 0),
      );
      await page.screenshot({ path: test.info().outputPath(`booking-times-${viewport.name}.png`) });
    });

    test("manage page and its reschedule step: site header; a day opens at its times", async ({
      page,
      javaScriptEnabled,
    }) => {
      test.setTimeout(120_000);
      const tag = unique();
      const { path } = await bookAndOpenManageLink(page, javaScriptEnabled, {
        name: `Mara Manage ${tag}`,
        email: `mara-${tag}@example.com`,
      });
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Dein Demo-Termin");
      await expectSiteHeader(page);
      await page.screenshot({ path: test.info().outputPath(`manage-${viewport.name}.png`) });
      await page.getByRole("link", { name: "Termin verschieben" }).click();
      await page.getByRole("link", { name: "Nächster Monat" }).click();
      await expect(page).toHaveURL(/monat=/);
      await page.locator("a[aria-label][href*='tag=']").first().click();
      await expect(page).toHaveURL(/#zeiten$/);
      await expect(page.locator("h2#zeiten")).toBeInViewport({ ratio: 1 });
      await expect(page.locator("form label:has(input[name=startTime])").first()).toBeInViewport();
      // The theme switch in the header works here too (without JS: back to this very page).
      const dark = page.getByRole("button", { name: "Dunklen Modus aktivieren" });
      await dark.click();
      await expect(page.locator("html")).toHaveClass(/dark/);
      await expect(page).toHaveURL(/\/termin\/verwalten\?token=/);
    });

    test("an invalid link says how to reach the agency (contact form, imprint)", async ({
      page,
      javaScriptEnabled,
    }) => {
      const response = await page.goto("/termin/verwalten?token=abc.def");
      expect(response?.status()).toBe(400);
      if (javaScriptEnabled) await waitForHydration(page);
      await expectSiteHeader(page);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Demo-Termin verwalten");
      const help = page.getByRole("region", { name: "So erreichst du uns" });
      await expect(help).toBeInViewport({ ratio: 1 });
      await expect(help.getByRole("link", { name: "Kontakt im Impressum" })).toHaveAttribute(
        "href",
        /impressum/,
      );
      await page.screenshot({ path: test.info().outputPath(`invalid-link-${viewport.name}.png`) });
      await help.getByRole("link", { name: "Zum Kontaktformular" }).click();
      await expect(page).toHaveURL(/\/#contact$/);
      await expect(
        page.getByRole("heading", { name: "Erzähl uns von deiner Idee" }),
      ).toBeInViewport();

      // The withdrawal page (reached without a request to withdraw) offers the same.
      await page.goto("/anfrage-zurueckziehen");
      await expectSiteHeader(page);
      await expect(page.getByRole("region", { name: "So erreichst du uns" })).toBeVisible();
    });
  });
}
