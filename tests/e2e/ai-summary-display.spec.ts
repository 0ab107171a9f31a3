import { signIn } from "./auth";
import { expect, test } from "./fixtures";
import { storeSummary } from "./seed";

// An AI summary that is not plain text is never shown (ADR 342): a `{}` stored by an earlier
// version stands in nowhere — the list row, the dashboard and the full-screen view show the
// description instead. (That a new `{}` answer is discarded and asked for again is an
// integration test: tests/integration/ai-summary.test.ts.) At 390 and 1280 px, JS on and off.
const SIZES = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
];

for (const size of SIZES) {
  test(`a stored "{}" summary is shown nowhere; the description stands in (${size.width})`, async ({
    page,
    seed,
  }) => {
    await page.setViewportSize(size);
    const tag = Math.random().toString(36).slice(2, 8);
    const id = await seed.request({
      name: `Zusammenfassung ${tag}`,
      description: `Reparaturtermine online vergeben ${tag}.`,
    });
    storeSummary(id, "{}");
    await signIn(page, await seed.admin(), { to: `/admin/requests?q=${tag}` });
    const row = page.locator(`[data-request-id="${id}"]`);
    await expect(row).toContainText(`Reparaturtermine online vergeben ${tag}.`);
    await expect(row).not.toContainText("{}");
    await page.goto("/admin/dashboard");
    const latest = page.getByRole("link", { name: new RegExp(`Zusammenfassung ${tag}`) });
    await expect(latest).toContainText(`Reparaturtermine online vergeben ${tag}.`);
    await expect(latest).not.toContainText("{}");
    await page.goto(`/admin/requests?requestId=${id}`);
    const view = page.locator("[data-fullscreen]");
    await expect(view).toContainText(`Reparaturtermine online vergeben ${tag}.`);
    await expect(view).not.toContainText("{}");
  });
}
