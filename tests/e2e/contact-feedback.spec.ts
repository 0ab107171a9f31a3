import { expect, test } from "./fixtures";
import { waitForHydration } from "./hydration";

/** Without JS a failed validation answers 400; Chromium logs that document load as an error. */
const feedbackTest = test.extend({
  failOnConsoleError: async ({ page }, use) => {
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() !== "error") return;
      if (
        /^Failed to load resource: the server responded with a status of 400/.test(message.text())
      )
        return;
      errors.push(message.text());
    });
    page.on("pageerror", (error) => errors.push(error.message));
    await use(undefined);
    expect(errors, "console errors in the page").toEqual([]);
  },
});

async function open(page: import("@playwright/test").Page, javaScriptEnabled: boolean) {
  await page.goto("/");
  await page.getByRole("button", { name: "Nur notwendige" }).click();
  if (javaScriptEnabled) await waitForHydration(page);
}

feedbackTest(
  "an invalid submission lands at the form with an error summary linking each field",
  async ({ page, javaScriptEnabled }) => {
    await open(page, javaScriptEnabled);
    await page.getByLabel("Name").fill("Lena");
    await page.getByLabel("E-Mail").fill("lena@example.com");
    await page.getByLabel("Telefon").fill("0221 987654");
    await page.getByLabel("Beschreibe dein Unternehmen").fill("Zu kurz");
    await page.getByRole("button", { name: "Anfrage senden" }).click();

    const summary = page.getByTestId("contact-error-summary");
    await expect(summary).toHaveAttribute("role", "alert");
    await expect(summary.getByRole("heading", { name: "Bitte prüfe deine Angaben" })).toBeVisible();
    const link = summary.getByRole("link", {
      name: "Bitte beschreibe dein Unternehmen mit mindestens 20 Zeichen",
    });
    await expect(link).toHaveAttribute("href", "#contact-form-companyDescription");
    await expect(summary.getByRole("link")).toHaveCount(1);
    // The message stands in the summary and under the field's counter, linked to the field.
    await expect(
      page.getByText("Bitte beschreibe dein Unternehmen mit mindestens 20 Zeichen"),
    ).toHaveCount(2);
    await expect(page.locator("#contact-form-companyDescription-error")).toHaveText(
      "Bitte beschreibe dein Unternehmen mit mindestens 20 Zeichen",
    );
    await expect(page.getByLabel("Beschreibe dein Unternehmen")).toHaveAttribute(
      "aria-describedby",
      "contact-form-companyDescription-counter contact-form-companyDescription-error",
    );
    await expect(page.getByTestId("company-counter")).toHaveText("7/20 Zeichen (mindestens)");
    await expect(page.getByLabel("Beschreibe dein Unternehmen")).toHaveAttribute(
      "aria-invalid",
      "true",
    );

    const url = new URL(page.url());
    expect(url.search).not.toContain("index");
    if (javaScriptEnabled) {
      // The JS form never left the page; the summary's heading has the focus.
      await expect(summary.getByRole("heading")).toBeFocused();
    } else {
      // The no-JS answer opens at the form, on the page's own path.
      expect(`${url.pathname}${url.search}${url.hash}`).toBe("/#contact");
      await expect(page.locator("#contact")).toBeInViewport();
    }
    await link.click();
    await expect(page.getByLabel("Beschreibe dein Unternehmen")).toBeFocused();
  },
);

feedbackTest(
  "no-JS: every invalid field is in the summary, its message once at the field",
  // With JS the submit stays disabled for these fields.
  { tag: "@no-js-only" },
  async ({ page, javaScriptEnabled }) => {
    await open(page, javaScriptEnabled);
    await page.getByLabel("Telefon").fill("abc");
    await page.getByLabel("Beschreibe dein Unternehmen").fill("Ein Betrieb mit zwanzig Leuten.");
    await page.getByRole("button", { name: "Anfrage senden" }).click();
    const summary = page.getByTestId("contact-error-summary");
    await expect(summary.getByRole("link")).toHaveText([
      "Name ist erforderlich",
      "E-Mail ist erforderlich",
      "Ungültiges Format. Mindestens 5 Zeichen (z.B. +49 123 456789, 0123 456789-1234)",
    ]);
    await expect(page.locator("#contact-form-phone-error")).toHaveText(
      "Ungültiges Format. Mindestens 5 Zeichen (z.B. +49 123 456789, 0123 456789-1234)",
    );
    await summary.getByRole("link", { name: "Name ist erforderlich" }).click();
    await expect(page.getByLabel("Name")).toBeFocused();
    // Long enough: the counter is not red and carries the ✓.
    await expect(page.getByTestId("company-counter")).not.toHaveClass(/text-red-600/);
    await expect(page.getByTestId("company-counter-ok")).toHaveText("Mindestlänge erreicht");
  },
);

// The live counter needs JS (no-JS: the test above).
test("a ✓ beside the counter once the minimum is reached", { tag: "@js-only" }, async ({
  page,
  javaScriptEnabled,
}) => {
  await open(page, javaScriptEnabled);
  const field = page.getByLabel("Beschreibe dein Unternehmen");
  const counter = page.getByTestId("company-counter");
  const ok = page.getByTestId("company-counter-ok");
  await field.fill("x".repeat(19));
  await expect(counter).toHaveText("19/20 Zeichen (mindestens)");
  await expect(counter).toHaveClass(/text-red-600/);
  await expect(ok).toHaveCount(0);
  await field.fill("x".repeat(20));
  await expect(counter).toHaveText("20/20 Zeichen (mindestens)");
  await expect(counter).not.toHaveClass(/text-red-600/);
  await expect(ok.locator("svg[data-icon=check]")).toBeVisible();
  await expect(ok).toHaveText("Mindestlänge erreicht");
});

test("a disabled submit says why; the privacy note links PRIVACY_URL", async ({
  page,
  javaScriptEnabled,
}) => {
  await open(page, javaScriptEnabled);
  await expect(
    page.getByTestId("privacy-note").getByRole("link", { name: "Datenschutzerklärung" }),
  ).toHaveAttribute("href", "https://example.com/datenschutz");
  const submit = page.getByRole("button", { name: "Anfrage senden" });
  const hint = page.getByTestId("contact-submit-hint");
  if (!javaScriptEnabled) {
    await expect(submit).toBeEnabled();
    await expect(hint).toHaveCount(0);
    return;
  }
  await expect(submit).toBeDisabled();
  await expect(submit).toHaveAccessibleDescription(
    "Zum Absenden fehlen noch dein Name, deine E-Mail-Adresse und deine Telefonnummer.",
  );
  await page.getByLabel("Name").fill("Ina");
  await page.getByLabel("E-Mail").fill("ina@example.com");
  await page.getByLabel("Telefon").fill("12");
  await expect(hint).toHaveText("Zum Absenden fehlt noch eine gültige Telefonnummer.");
  await page.getByLabel("Telefon").fill("0221 987654");
  await expect(submit).toBeEnabled();
  await expect(hint).toHaveCount(0);
  await expect(submit).not.toHaveAttribute("aria-describedby");
});
