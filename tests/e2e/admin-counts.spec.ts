import type { Page } from "@playwright/test";
import { signIn } from "./auth";
import { expect, test } from "./fixtures";
import { findAdmin, removeAdmin } from "./seed";

// Every admin count agrees (ADR 342): with a colleague waiting for activation, the dashboard's
// "Admins", /admin/legacy's and the "Benutzer" page count the same accounts, and the first two
// say how many of them are active and how many wait. At 390 and 1280 px, with and without JS.
const SIZES = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
];

async function waitingColleague(page: Page, admin: { username: string; password: string }) {
  const login = await page.request.post("/api/admin/auth/login", { data: admin });
  const { token } = (await login.json()) as { token: string };
  const email = `wartet-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const invited = await page.request.post("/api/admin/invite", {
    headers: { authorization: `Bearer ${token}` },
    data: { email },
  });
  const { invitationToken } = (await invited.json()) as { invitationToken: string };
  const registered = await page.request.post("/api/admin/register", {
    data: { invitationToken, username: email.split("@")[0], password: "Wolke-Lampe-Fahrrad-91" },
  });
  expect(registered.status()).toBe(201);
  return email;
}

/** The number and the note of a stats card labelled "Admins". */
async function adminsCard(page: Page) {
  const card = page.locator("p", { hasText: /^Admins$/ }).locator("..");
  await card.scrollIntoViewIfNeeded();
  await expect(card).toBeInViewport();
  const texts = await card.locator("p").allTextContents();
  return { value: Number(texts[1]), note: texts[2] ?? "" };
}

for (const size of SIZES) {
  test(`dashboard, legacy and Benutzer count the same admins and name the waiting one (${size.width})`, async ({
    page,
    seed,
  }, testInfo) => {
    await page.setViewportSize(size);
    const admin = await seed.admin();
    const email = await waitingColleague(page, admin);
    try {
      await signIn(page, admin, { to: "/admin/users" });
      const heading = await page.getByRole("heading", { name: /^Admins \(\d+\)$/ }).textContent();
      const total = Number(heading?.match(/\((\d+)\)/)?.[1]);
      await page.goto("/admin/dashboard");
      const dashboard = await adminsCard(page);
      await page.screenshot({ path: testInfo.outputPath(`dashboard-admins-${size.width}.png`) });
      await page.goto("/admin/legacy");
      const legacy = await adminsCard(page);
      expect(dashboard.value).toBe(total);
      expect(legacy.value).toBe(total);
      expect(dashboard.note).toMatch(/^\d+ aktiv · \d+ (wartet|warten) auf Freischaltung/);
      expect(legacy.note).toBe(dashboard.note);
    } finally {
      const waiting = findAdmin(email);
      if (waiting) removeAdmin(waiting.id);
    }
  });
}
