import { darkerSuggestion } from "~/lib/brand-color";
import { BrandingSchema } from "~/lib/branding";
import { loginAs, signIn } from "./auth";
import { axeOn } from "./axe";
import { expect, test } from "./fixtures";
import { waitForHydration } from "./hydration";
import { switchToDarkTheme } from "./theme";

// The brand colour's contrast rule holds for every use of its shades in dark mode (ADR 341): with
// a dark green (#0b5d1e) the "Admin-Bereich" label, the "Neu" badges and every link and button
// stay readable (axe, JS on); a light yellow is refused at its field with a darker colour of its
// hue that passes. At 390 and 1280 px, with and without JS.
const SIZES = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
];
const GREEN = "#0b5d1e";
const YELLOW = "#fff176";

for (const size of SIZES) {
  test(`dark green in dark mode: "Admin-Bereich", "Neu" and the accent stay readable (${size.width})`, async ({
    page,
    seed,
    javaScriptEnabled,
  }, testInfo) => {
    await page.setViewportSize(size);
    seed.configuration({ branding: BrandingSchema.parse({ primaryColor: GREEN }) });
    const id = await seed.request({ name: "Grüne Gärtnerei" });
    await switchToDarkTheme(page, javaScriptEnabled);
    await loginAs(page, await seed.admin());
    for (const path of [
      "/admin/dashboard",
      "/admin/requests",
      `/admin/requests?requestId=${id}`,
      "/admin/settings",
    ]) {
      await page.goto(path);
      await expect(page.locator("html")).toHaveClass(/dark/);
      // The shades are the brand's: --color-indigo-600 is the colour itself.
      expect(
        await page.evaluate(() =>
          document.documentElement.style.getPropertyValue("--color-indigo-600"),
        ),
      ).toBe(GREEN);
      await expect(page.getByText("Admin-Bereich")).toBeVisible();
      if (javaScriptEnabled) {
        const results = await axeOn(page).withRules(["color-contrast"]).analyze();
        expect(
          results.violations.map((v) => `${path}: ${v.nodes.map((n) => n.target).join(", ")}`),
        ).toEqual([]);
      }
    }
    await page.goto("/admin/requests");
    // The request's status badge (not the status select's option of the same word).
    const badge = page.locator(`[data-request-id="${id}"]`).locator("span", { hasText: /^Neu$/ });
    await expect(badge).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`green-dark-${size.width}.png`) });
  });

  test(`a light yellow is refused at its field, with a darker colour of its hue (${size.width})`, async ({
    page,
    seed,
    javaScriptEnabled,
  }) => {
    await page.setViewportSize(size);
    seed.configuration({});
    await signIn(page, await seed.admin(), { to: "/admin/settings#branding" });
    if (javaScriptEnabled) await waitForHydration(page);
    const field = page.getByLabel("Hauptfarbe (Hex, z. B. #0b5d1e)");
    await field.fill(YELLOW);
    await page.getByRole("button", { name: "Konfiguration speichern" }).click();
    const darker = darkerSuggestion(YELLOW) as string;
    const message = page.getByText(new RegExp(`Kontrastverhältnis 4,5:1.*Zum Beispiel ${darker}`));
    await expect(message).toBeInViewport();
    await expect(field).toBeFocused();
    await expect(field).toHaveAttribute("aria-invalid", "true");
    // The suggestion is taken.
    await field.fill(darker);
    await page.getByRole("button", { name: "Konfiguration speichern" }).click();
    await expect(page.getByText("Konfiguration erfolgreich gespeichert!")).toBeVisible();
    expect(
      await page.evaluate(() =>
        document.documentElement.style.getPropertyValue("--color-indigo-600"),
      ),
    ).toBe(darker);
  });
}
