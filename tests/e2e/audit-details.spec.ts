import type { Page } from "@playwright/test";
import { signIn } from "./auth";
import { expect, test } from "./fixtures";

// The audit log speaks German (ADR 342): a status change reads "Status: Neu → Erledigt" on the
// page and in its CSV — never the stored JSON. At 390 and 1280 px, with and without JS.
const SIZES = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
];

async function setStatus(page: Page, admin: { username: string; password: string }, id: number) {
  const login = await page.request.post("/api/admin/auth/login", { data: admin });
  const { token } = (await login.json()) as { token: string };
  const res = await page.request.put(`/api/admin/requests/${id}`, {
    headers: { authorization: `Bearer ${token}` },
    data: { status: "Done" },
  });
  expect(res.status()).toBe(200);
}

for (const size of SIZES) {
  test(`a status change reads "Status: Neu → Erledigt" on the audit page and in its CSV (${size.width})`, async ({
    page,
    seed,
  }, testInfo) => {
    await page.setViewportSize(size);
    const admin = await seed.admin();
    const id = await seed.request();
    await setStatus(page, admin, id);
    await signIn(page, admin, { to: `/admin/audit?actor=${admin.id}&action=status` });
    const row = page.getByTestId("audit-row").first();
    await expect(row).toContainText(`Anfrage #${String(id).padStart(4, "0")}`);
    const details = row.getByText("Status: Neu → Erledigt");
    await expect(details).toBeVisible();
    await details.scrollIntoViewIfNeeded();
    await expect(details).toBeInViewport();
    await expect(row).not.toContainText('"from"');
    await expect(row).not.toContainText("{");
    await page.screenshot({ path: testInfo.outputPath(`audit-status-${size.width}.png`) });

    // The CSV of the same filter: the same words.
    const csv = await page.request.get(`/admin/audit.csv?actor=${admin.id}&action=status`);
    expect(csv.status()).toBe(200);
    const text = await csv.text();
    expect(text).toContain("Status: Neu → Erledigt");
    expect(text).not.toContain('"from"');
  });
}
