import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { waitForHydration } from "./hydration";

// Our CSP allows no eval. A refused eval that the script catches logs no console error, but the
// browser still reports it (Lighthouse: best practices < 100). Zod 4's `new Function` probe did so
// on every page with a form schema until it ran jitless (app/lib/zod-jitless.client.ts).

async function recordViolations(page: Page) {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener("securitypolicyviolation", (event) =>
      seen.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}`),
    );
  });
  return () =>
    page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations);
}

test("the admin login with its form schema runs without a CSP violation @js-only", async ({
  page,
}) => {
  const violations = await recordViolations(page);
  await page.goto("/admin/login");
  await waitForHydration(page);
  await page.getByLabel("Benutzername").fill("jemand");
  await page.getByLabel("Benutzername").blur();
  expect(await violations()).toEqual([]);
});

test("the landing page's contact form loads its schema without a CSP violation @js-only", async ({
  page,
}) => {
  const violations = await recordViolations(page);
  await page.goto("/");
  await waitForHydration(page);
  // The schema (Zod) is loaded on the first focus of the form (ADR 011).
  const schema = page.waitForResponse((r) => /contact-validation|schemas/.test(r.url()));
  await page.getByLabel("Name").focus();
  await schema;
  await page.getByLabel("Name").fill("Ida");
  await page.getByLabel("E-Mail").fill("keine-adresse");
  await page.getByLabel("E-Mail").blur();
  // The schema ran (its message shows), so any probe of it has happened.
  await expect(page.getByText("Bitte gib eine gültige E-Mail-Adresse ein").first()).toBeVisible();
  expect(await violations()).toEqual([]);
});
