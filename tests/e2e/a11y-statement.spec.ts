import type { Page } from "@playwright/test";
import { signIn } from "./auth";
import { axeOn } from "./axe";
import { submitVisitorRequest } from "./fidelity-helpers";
import { expect, test } from "./fixtures";
import { waitForHydration } from "./hydration";
import { feedbackEntries, removeFeedback } from "./seed";
import { switchToDarkTheme } from "./theme";

// What the accessibility statement's compliance text says the product's tests check (ADR 340):
// axe on the landing page with its contact form and error messages, "Meine Anfragen", the
// statement with its feedback form (as sent and as refused), the embedded form, and the admin
// side of the statement — light and dark, at 390 and 1280 px. JS-on only (axe runs inside the
// page); the HTML is the server's in both projects. The cookie bar, the booking page, the manage
// and withdrawal pages are in a11y-visitor.spec.ts and a11y-manage.spec.ts.
test.describe.configure({ timeout: 240_000 });

async function violations(page: Page) {
  const results = await axeOn(page).analyze();
  return results.violations.map(
    (v) => `${page.url()} ${v.id} (${v.nodes.length}) ${v.nodes[0]?.target}`,
  );
}

for (const theme of ["light", "dark"] as const) {
  for (const size of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    test(`the statement, the landing page and the embedded form have no axe violations (${theme}, ${size.width})`, async ({
      page,
      seed,
    }) => {
      await page.setViewportSize(size);
      if (theme === "dark") await switchToDarkTheme(page);
      const tag = Math.random().toString(36).slice(2, 8);
      const before = feedbackEntries().map((e) => e.id);
      try {
        // The landing page with a request in "Meine Anfragen", its footer and the contact form.
        await submitVisitorRequest(page, `Axel ${tag}`, `axel-${tag}@example.com`, true);
        await page.goto("/");
        await waitForHydration(page);
        await expect(page.locator("html")).toHaveClass(theme === "dark" ? /dark/ : /^(?!.*dark)/);
        await expect(page.locator("#history")).toBeVisible();
        expect(await violations(page)).toEqual([]);
        // The contact form's messages: the error summary after a submission without a company.
        await page.getByLabel("Name").fill(`Axel ${tag}`);
        await page.getByLabel("E-Mail").fill(`axel-${tag}@example.com`);
        await page.getByLabel("Telefon").fill("+49 30 555 1234");
        await page.getByRole("button", { name: "Anfrage senden" }).click();
        await expect(page.getByTestId("contact-error-summary").getByRole("heading")).toBeFocused();
        expect(await violations(page)).toEqual([]);

        await page.goto("/barrierefreiheit");
        await waitForHydration(page);
        expect(await violations(page)).toEqual([]);
        // Refused: the message at its field.
        await page.getByRole("button", { name: "Rückmeldung senden" }).click();
        await expect(page.getByLabel("Was ist dir aufgefallen?")).toBeFocused();
        expect(await violations(page)).toEqual([]);
        // Sent: the thanks.
        await page
          .getByLabel("Was ist dir aufgefallen?")
          .fill(`Prüfung mit axe (${tag}), bitte ignorieren.`);
        await page.getByRole("button", { name: "Rückmeldung senden" }).click();
        await expect(page.getByTestId("feedback-sent")).toBeFocused();
        expect(await violations(page)).toEqual([]);

        await page.goto("/embed");
        expect(await violations(page)).toEqual([]);

        // The admin side: the settings card and the list of feedback.
        await signIn(page, await seed.admin(), { to: "/admin/settings#accessibility" });
        await expect(
          page.getByRole("heading", { level: 2, name: "Barrierefreiheit" }),
        ).toBeVisible();
        expect(await violations(page)).toEqual([]);
        await page.goto("/admin/settings/barrierefreiheit");
        await expect(page.getByTestId("feedback-entry").first()).toBeVisible();
        expect(await violations(page)).toEqual([]);
      } finally {
        removeFeedback(
          feedbackEntries()
            .filter((e) => !before.includes(e.id))
            .map((e) => e.id),
        );
      }
    });
  }
}
