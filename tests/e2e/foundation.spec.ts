import { expect, test } from "./fixtures";

test("the landing page is German and unknown paths lead home @static", async ({ page }) => {
  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await page.goto("/das/gibt/es/nicht");
  await expect(page).toHaveURL(/\/$/);
});

test("health check answers @static", async ({ request }) => {
  const response = await request.get("/healthz");
  expect(response.status()).toBe(200);
});
