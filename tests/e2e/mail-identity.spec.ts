// Absender und Pflichtangaben (ADR 325), with and without JavaScript at 390×844 and
// 1280×800: the settings card (the legal form decides the fields, bad input refused at the field,
// the go-live item leads here), and every kind of mail the portal sends read at the SMTP stand-in —
// text and HTML part carry the signature and the legal details of the chosen form.

import type { Page } from "@playwright/test";
import { getConfiguration } from "~/server/configuration/configuration.server";
import { MAIL_KINDS } from "~/server/mail/kinds.server";
import { loginAs } from "./auth";
import { axeOn } from "./axe";
import { expect, test } from "./fixtures";
import { waitForHydration } from "./hydration";
import { IDENTITY, LEGAL_LINES, sendEveryMailKind } from "./mail-kinds";
import { switchToDarkTheme } from "./theme";

const VIEWPORTS = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 800 },
] as const;

const card = (page: Page) => page.locator("section#mailIdentity, #mailIdentity").first();

async function save(page: Page) {
  await page.getByRole("button", { name: "Konfiguration speichern" }).click();
}

for (const viewport of VIEWPORTS) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test("the card: the legal form decides the fields, bad input is refused at the field, the go-live item leads here", async ({
      page,
      seed,
      javaScriptEnabled,
    }, testInfo) => {
      seed.configuration({
        mailIdentity: { ...IDENTITY, legalForm: null, managingDirectors: null },
      });
      await loginAs(page, await seed.admin());

      // The go-live check names what is missing and links to the card.
      await page.goto("/admin/dashboard");
      const item = page.locator('[data-check="mailIdentity"]');
      await expect(item).toContainText("Absender und Pflichtangaben in E-Mails");
      await expect(item).toContainText("Es fehlt: Rechtsform");
      await item.getByRole("link", { name: "Zu Absender und Pflichtangaben" }).click();
      await expect(page).toHaveURL(/\/admin\/settings#mailIdentity$/);
      if (javaScriptEnabled) await waitForHydration(page);
      const section = card(page);
      await expect(
        section.getByRole("heading", { name: "Absender und Pflichtangaben" }),
      ).toBeInViewport();

      const form = section.getByLabel("Rechtsform");
      await form.selectOption("ag");
      if (javaScriptEnabled) {
        // Only the AG's fields: the Vorstand and the Aufsichtsrat's chair, no Geschäftsführer.
        await expect(section.getByLabel(/^Vorstand \(alle Mitglieder\)/)).toBeVisible();
        await expect(section.getByLabel(/^Geschäftsführer \(alle\)/)).toBeHidden();
        await expect(section.locator("#mailIdentity-status")).toContainText(
          "Vorstand (alle Mitglieder), Vorsitz des Aufsichtsrats",
        );
      } else {
        // Every field, each saying for which forms it is needed.
        await expect(section.getByLabel(/^Geschäftsführer \(alle\)/)).toBeVisible();
        await expect(section.getByText("Pflicht bei: AG.").first()).toBeVisible();
      }
      await form.selectOption("gmbh");
      // A register number with a line break cannot be typed into one line: markup it can.
      await section.getByLabel(/^Geschäftsführer \(alle\)/).fill("<b>Erika Muster</b>");
      await save(page);
      const directors = section.getByLabel(/^Geschäftsführer \(alle\)/);
      await expect(section.getByText("Bitte ohne spitze Klammern (< >) eingeben")).toBeVisible();
      await expect(directors).toBeFocused();
      await expect(directors).toBeInViewport();
      await expect(directors).toHaveAttribute("aria-invalid", "true");
      await page.screenshot({ path: testInfo.outputPath(`card-refused-${viewport.name}.png`) });

      await directors.fill(IDENTITY.managingDirectors);
      await save(page);
      await expect(page.getByText("Konfiguration erfolgreich gespeichert!")).toBeVisible();
      await page.goto("/admin/settings#mailIdentity");
      const saved = card(page);
      await expect(saved.locator("#mailIdentity-status")).toContainText(
        "Vollständig: Jede E-Mail trägt die Pflichtangaben (GmbH).",
      );
      await expect(saved.getByTestId("mail-identity-preview")).toContainText(
        LEGAL_LINES[3] as string,
      );
      await saved.scrollIntoViewIfNeeded();
      await page.screenshot({ path: testInfo.outputPath(`card-saved-${viewport.name}.png`) });
      await page.goto("/admin/dashboard");
      await expect(page.locator('[data-check="mailIdentity"]')).toHaveAttribute("data-ok", "true");
    });
  });
}

test("the settings page with the card has no axe violations, light and dark @js-only", async ({
  page,
  seed,
}) => {
  seed.configuration({ mailIdentity: { ...IDENTITY, managingDirectors: null } });
  await loginAs(page, await seed.admin());
  for (const theme of ["light", "dark"] as const) {
    if (theme === "dark") await switchToDarkTheme(page);
    await page.goto("/admin/settings#mailIdentity");
    await waitForHydration(page);
    await expect(card(page).locator("#mailIdentity-status")).toContainText("Geschäftsführer");
    const results = await axeOn(page).include("#mailIdentity").analyze();
    expect(results.violations.map((v) => `${theme}: ${v.id} ${v.nodes[0]?.target}`)).toEqual([]);
  }
});

test("every mail kind reaches the SMTP stand-in with the signature and the GmbH's legal details", async ({
  page,
  seed,
  javaScriptEnabled,
}) => {
  test.setTimeout(240_000);
  seed.configuration({
    branding: { ...getConfiguration().branding, name: "Kleinbyte" },
    mailIdentity: IDENTITY,
  });
  const mails = await sendEveryMailKind(page, seed, javaScriptEnabled);
  expect([...mails.keys()].sort()).toEqual(Object.keys(MAIL_KINDS).sort());
  for (const [kind, mail] of mails) {
    const signOff =
      MAIL_KINDS[kind as keyof typeof MAIL_KINDS] === "visitor"
        ? IDENTITY.signOffVisitor
        : IDENTITY.signOffAdmin;
    expect(mail.text, kind).toContain(`${signOff}\nKleinbyte\n\n-- \n${LEGAL_LINES.join("\n")}`);
    expect(mail.html, kind).toContain(`${signOff}<br>Kleinbyte`);
    for (const line of LEGAL_LINES) expect(mail.html, `${kind}: ${line}`).toContain(line);
    expect(`${mail.subject}${mail.text}${mail.html}`, kind).not.toContain("Anfrage-Portal");
  }
});
