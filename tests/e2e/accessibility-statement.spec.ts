import type { Page } from "@playwright/test";
import { DEFAULT_ACCESSIBILITY } from "~/lib/accessibility";
import { signIn } from "./auth";
import { expect, test } from "./fixtures";
import { waitForHydration } from "./hydration";
import { feedbackEntries, outboxRecipients, removeFeedback } from "./seed";

// The accessibility statement (BFSG §14, ADR 340), with and without JS at 390 and 1280 px: the
// footer link of every visitor page and /embed, the page's content, its feedback form (stored held
// without JS, never mailed to the typed address) and the admin side (list, erase, switch off).
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const unique = () => Math.random().toString(36).slice(2, 8);

/** The landing page without its cookie bar in the way (the stack has analytics configured). */
async function landing(page: Page, javaScriptEnabled: boolean) {
  await page.goto("/");
  if (javaScriptEnabled) await waitForHydration(page);
  const necessary = page.getByRole("button", { name: "Nur notwendige" });
  if (await necessary.isVisible()) await necessary.click();
  await expect(necessary).toHaveCount(0);
}

for (const size of [PHONE, DESKTOP]) {
  test(`every visitor footer and /embed lead to the statement, which says what the product does (${size.width})`, async ({
    page,
    javaScriptEnabled,
  }, testInfo) => {
    await page.setViewportSize(size);
    await landing(page, javaScriptEnabled);
    const footer = page.getByRole("navigation", { name: "Rechtliches" });
    const link = footer.getByRole("link", { name: "Barrierefreiheit", exact: true });
    await link.scrollIntoViewIfNeeded();
    await expect(link).toBeInViewport();
    await link.click();
    await expect(page).toHaveURL(/\/barrierefreiheit$/);
    const title = page.getByRole("heading", { level: 1, name: "Erklärung zur Barrierefreiheit" });
    await expect(title).toBeInViewport();
    // Anlage 3 Nr. 1: the service, how to use it, how it meets the requirements — each a section.
    for (const heading of [
      "Was du hier tun kannst",
      "So nutzt du die Seite – mit Tastatur, Screenreader und ohne JavaScript",
      "Wie die Seite die Anforderungen an die Barrierefreiheit erfüllt",
      "Barriere melden oder Rückmeldung geben",
    ]) {
      await expect(page.getByRole("heading", { level: 2, name: heading })).toBeVisible();
    }
    await expect(page.getByText(/Automatische Prüfungen mit dem Werkzeug axe-core/)).toBeVisible();
    // The index of the page jumps to a section.
    await page
      .getByRole("navigation", { name: "Inhalt der Erklärung" })
      .getByRole("link", {
        name: "Wie die Seite die Anforderungen an die Barrierefreiheit erfüllt",
      })
      .click();
    await expect(
      page.getByRole("heading", {
        name: "Wie die Seite die Anforderungen an die Barrierefreiheit erfüllt",
      }),
    ).toBeInViewport();
    // No sideways scrolling on the statement page.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      size.width,
    );
    await page.screenshot({
      path: testInfo.outputPath(`statement-${size.width}.png`),
      fullPage: true,
    });

    // The visitor's other pages carry the same footer (the visitor layout).
    await page.goto("/anfrage-zurueckziehen");
    const other = page
      .getByRole("navigation", { name: "Rechtliches" })
      .getByRole("link", { name: "Barrierefreiheit", exact: true });
    await other.scrollIntoViewIfNeeded();
    await expect(other).toBeInViewport();
    await expect(other).toHaveAttribute("href", "/barrierefreiheit");

    // The framed form: a link under it that opens outside the frame.
    await page.goto("/embed");
    const embedded = page.getByRole("link", {
      name: "Erklärung zur Barrierefreiheit (öffnet in neuem Tab)",
    });
    await embedded.scrollIntoViewIfNeeded();
    await expect(embedded).toBeInViewport();
    await expect(embedded).toHaveAttribute("target", "_blank");
    await expect(embedded).toHaveAttribute("href", "/barrierefreiheit");
  });

  test(`feedback is sent with the thanks in view, held without JS, and mailed to nobody (${size.width})`, async ({
    page,
    javaScriptEnabled,
  }, testInfo) => {
    await page.setViewportSize(size);
    const tag = unique();
    const email = `melderin-${tag}@example.com`;
    const before = feedbackEntries().map((e) => e.id);
    await page.goto("/barrierefreiheit");
    if (javaScriptEnabled) await waitForHydration(page);
    const form = page.getByRole("region", { name: "Barriere melden oder Rückmeldung geben" });
    // A refused post first: the message at its field, and that field takes the focus.
    await form.getByRole("button", { name: "Rückmeldung senden" }).click();
    const message = form.getByLabel("Was ist dir aufgefallen?");
    await expect(
      form.getByText("Bitte beschreib kurz, wo du auf eine Barriere gestoßen bist."),
    ).toBeInViewport();
    await expect(message).toBeFocused();
    await message.fill(`Die Zeiten im Termin-Dialog liest mein Screenreader nicht vor (${tag}).`);
    await form.getByLabel("Seite oder Stelle (optional)").fill("Terminbuchung");
    await form.getByLabel("Dein Name (optional)").fill("Mara");
    await form.getByLabel("Deine E-Mail-Adresse für eine Antwort (optional)").fill(email);
    await form.getByRole("button", { name: "Rückmeldung senden" }).click();
    const thanks = page.getByTestId("feedback-sent");
    await expect(thanks).toContainText("Danke für deine Rückmeldung!");
    await expect(thanks).toContainText("Eine Bestätigung per E-Mail schicken wir nicht.");
    await expect(thanks).toBeInViewport();
    if (javaScriptEnabled) await expect(thanks).toBeFocused();
    // The form starts empty again for the next one.
    await expect(form.getByLabel("Was ist dir aufgefallen?")).toHaveValue("");
    await expect(page).toHaveURL(/\/barrierefreiheit\?gesendet=1#rueckmeldung$/);
    await page.screenshot({ path: testInfo.outputPath(`feedback-sent-${size.width}.png`) });

    const mine = feedbackEntries().filter((e) => !before.includes(e.id));
    try {
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({ location: "Terminbuchung", name: "Mara", email });
      // With JS the browser solved the proof of work; without, the entry waits for a human.
      expect(mine[0]?.held).toBe(!javaScriptEnabled);
      // Nothing goes to the address typed here.
      expect(outboxRecipients()).not.toContain(email);
    } finally {
      removeFeedback(mine.map((e) => e.id));
    }
  });

  test(`admins read the feedback from the settings card and erase it (${size.width})`, async ({
    page,
    seed,
    javaScriptEnabled,
  }) => {
    await page.setViewportSize(size);
    const tag = unique();
    const text = `Der Kontrast im Cookie-Hinweis ist zu schwach (${tag}).`;
    const before = feedbackEntries().map((e) => e.id);
    await page.goto("/barrierefreiheit");
    await page.getByLabel("Was ist dir aufgefallen?").fill(text);
    await page.getByRole("button", { name: "Rückmeldung senden" }).click();
    await expect(page.getByTestId("feedback-sent")).toBeVisible();
    const mine = feedbackEntries().filter((e) => !before.includes(e.id));
    try {
      await signIn(page, await seed.admin(), { to: "/admin/settings#accessibility" });
      const card = page.locator("#accessibility");
      const list = card.getByRole("link", { name: /^Rückmeldungen ansehen \(\d+\)$/ });
      await list.scrollIntoViewIfNeeded();
      await expect(list).toBeInViewport();
      await list.click();
      await expect(page).toHaveURL(/\/admin\/settings\/barrierefreiheit$/);
      const entry = page.getByTestId("feedback-entry").filter({ hasText: text });
      await expect(entry).toBeVisible();
      const id = mine[0]?.id;
      if (javaScriptEnabled) await waitForHydration(page);
      await entry.getByRole("button", { name: `Rückmeldung #${id} löschen` }).click();
      // Asked once: the modal with JS, a confirmation step without.
      const confirm = javaScriptEnabled
        ? page.getByRole("alertdialog").getByRole("button", { name: "Löschen" })
        : page.locator("[data-confirmation-step]").getByRole("button", { name: "Löschen" });
      await expect(confirm).toBeInViewport();
      await confirm.click();
      await expect(page.getByText("Rückmeldung gelöscht.")).toBeVisible();
      await expect(page.getByTestId("feedback-entry").filter({ hasText: text })).toHaveCount(0);
      expect(feedbackEntries().map((e) => e.id)).not.toContain(id);
    } finally {
      removeFeedback(
        feedbackEntries()
          .filter((e) => !before.includes(e.id))
          .map((e) => e.id),
      );
    }
  });
}

test("switched off in the settings: no page, no footer link, no link under /embed", async ({
  page,
  seed,
  javaScriptEnabled,
}) => {
  // Restored after the test (published again).
  seed.configuration({ accessibility: { ...DEFAULT_ACCESSIBILITY } });
  await page.setViewportSize(PHONE);
  await signIn(page, await seed.admin(), { to: "/admin/settings#accessibility" });
  if (javaScriptEnabled) await waitForHydration(page);
  const publish = page.getByRole("checkbox", { name: "Erklärung veröffentlichen" });
  await expect(publish).toBeChecked();
  await publish.uncheck();
  await page.getByRole("button", { name: "Konfiguration speichern" }).click();
  await expect(page.getByText("Konfiguration erfolgreich gespeichert!")).toBeVisible();

  await page.goto("/anfrage-zurueckziehen");
  await expect(page.getByRole("navigation", { name: "Rechtliches" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Barrierefreiheit", exact: true })).toHaveCount(0);
  await page.goto("/embed");
  await expect(page.getByRole("link", { name: /Erklärung zur Barrierefreiheit/ })).toHaveCount(0);
  const gone = await page.goto("/barrierefreiheit");
  expect(gone?.status()).toBe(404);
  await expect(page.getByText("Diese Seite gibt es derzeit nicht.")).toBeVisible();
});
