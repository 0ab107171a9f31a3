import { expect, test } from "./fixtures";
import { waitForHydration } from "./hydration";

// ADR 115, "Frame": logo and public link in the admin header, one brand name, aligned column,
// only the change-password page while the first change is pending, the OS theme until a choice,
// and an auth check indicator that never covers the header.

/** Lightness (0..100) of the body background; Tailwind 4 colours compute as lab() or rgb(). */
async function bodyLightness(page: import("@playwright/test").Page): Promise<number> {
  const color = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const numbers = (color.match(/-?[\d.]+/g) ?? []).map(Number);
  if (color.startsWith("lab(") || color.startsWith("oklch(")) {
    const l = numbers[0] ?? Number.NaN;
    return color.startsWith("oklch(") && l <= 1 ? l * 100 : l;
  }
  const [r = 0, g = 0, b = 0] = numbers;
  return ((r + g + b) / 3 / 255) * 100;
}

test("admin header: logo, brand, link to the public page, content aligned with the header", async ({
  page,
  loginAsNew,
}) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await loginAsNew(page);
  await page.goto("/admin/dashboard");
  const header = page.locator("header").first();
  await expect(header.locator("svg[aria-hidden=true]").first()).toBeVisible();
  await expect(header.getByText("Anfrage-Portal · Admin-Bereich")).toBeVisible();
  const publicLink = header.getByRole("link", { name: "Zur Website" });
  await expect(publicLink).toHaveAttribute("href", "/");
  // The welcome line, the first tab and the page heading start at the same x.
  const welcome = await header.getByText(/^Willkommen, /).boundingBox();
  const logo = await header.locator("svg").first().boundingBox();
  const firstTab = await page
    .getByRole("navigation", { name: "Admin-Bereiche" })
    .getByRole("link")
    .first()
    .boundingBox();
  const heading = await page.locator("main h1").first().boundingBox();
  expect(logo && welcome && firstTab && heading).toBeTruthy();
  // Tabs have their own inner padding (px-3): their box starts at the column edge.
  expect(Math.abs((logo?.x ?? 0) - (heading?.x ?? -99))).toBeLessThan(2);
  expect(Math.abs((firstTab?.x ?? 0) - (heading?.x ?? -99))).toBeLessThan(2);
  await publicLink.click();
  await expect(page).toHaveURL(/\/$/);
  // The landing page shows the same brand name.
  await expect(page.locator("footer")).toContainText("Anfrage-Portal");
});

test("while the first password change is pending, only the change-password page is offered", async ({
  page,
  seed,
}) => {
  const admin = await seed.admin({ passwordChanged: false });
  await page.goto("/admin/login");
  await page.getByLabel("Benutzername").fill(admin.username);
  await page.getByLabel("Passwort", { exact: true }).fill(admin.password);
  await page.getByRole("button", { name: "Anmelden" }).click();
  await expect(page).toHaveURL(/\/admin\/change-password\?firstLogin=1/);
  const tabs = page.getByRole("navigation", { name: "Admin-Bereiche" }).getByRole("link");
  await expect(tabs).toHaveText(["Account-Einstellungen"]);
  await page.getByLabel("Aktuelles Passwort").fill(admin.password);
  const fresh = `neu-${admin.username}-passwort`;
  await page.getByLabel("Neues Passwort", { exact: true }).fill(fresh);
  await page.getByLabel("Neues Passwort bestätigen").fill(fresh);
  await page.getByRole("button", { name: "Passwort ändern" }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await expect(tabs).toHaveCount(7);
});

test("the OS dark preference applies until a theme is chosen, on the landing page and in the admin area", async ({
  page,
  loginAsNew,
  javaScriptEnabled,
}) => {
  await page.emulateMedia({ colorScheme: "dark" });
  await loginAsNew(page);
  for (const path of ["/", "/admin/dashboard"]) {
    await page.goto(path);
    // No class on <html> (no choice stored), yet dark from the first paint: CSS, no script.
    await expect(page.locator("html")).not.toHaveClass(/dark|light/);
    expect(await bodyLightness(page)).toBeLessThan(15);
    // The toggle offers the way out of what is on screen.
    await expect(page.getByRole("button", { name: "Hellen Modus aktivieren" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Dunklen Modus aktivieren" })).toBeHidden();
  }
  // The admin chooses light: it wins over the OS preference, also after a reload.
  if (javaScriptEnabled) await waitForHydration(page);
  await Promise.all([
    javaScriptEnabled
      ? page.waitForResponse((r) => r.url().includes("/preferences/theme") && r.ok())
      : Promise.resolve(),
    page.getByRole("button", { name: "Hellen Modus aktivieren" }).click(),
  ]);
  await expect(page.locator("html")).toHaveClass("light");
  await page.goto("/");
  await expect(page.locator("html")).toHaveClass("light");
  expect(await bodyLightness(page)).toBeGreaterThan(95);
  await expect(page.getByRole("button", { name: "Dunklen Modus aktivieren" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Hellen Modus aktivieren" })).toHaveCount(0);
});

// Client navigation only: without JS every page is checked by the server.
test("the auth check indicator shows only after a moment and below the header", {
  tag: "@js-only",
}, async ({ page, loginAsNew }) => {
  await loginAsNew(page);
  await page.goto("/admin/dashboard");
  await waitForHydration(page);
  // Hold the next page's data request until the indicator was measured.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/admin\/users\.data/, async (route) => {
    await held;
    await route.continue();
  });
  await page
    .getByRole("navigation", { name: "Admin-Bereiche" })
    .getByRole("link", { name: "Benutzer" })
    .click();
  const indicator = page.getByRole("status").filter({ hasText: "Überprüfe Authentifizierung..." });
  await expect(indicator).toBeVisible();
  expect(await indicator.evaluate((el) => getComputedStyle(el).animationDelay)).toBe("0.4s");
  const tabs = await page.getByRole("navigation", { name: "Admin-Bereiche" }).boundingBox();
  const box = await indicator.boundingBox();
  expect(tabs && box).toBeTruthy();
  expect(box?.y ?? 0).toBeGreaterThanOrEqual((tabs?.y ?? 0) + (tabs?.height ?? 0));
  release();
  await expect(page).toHaveURL(/\/admin\/users$/);
  await expect(indicator).toHaveCount(0);
});
