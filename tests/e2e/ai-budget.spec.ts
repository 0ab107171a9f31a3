import { axeOn } from "./axe";
import { expect, test } from "./fixtures";
import { waitForHydration } from "./hydration";

// ADRs 255, 318: today's AI budgets used up (`ai.dailyLimit` and the admins' own
// `ai.manualDailyLimit`, ADR 318, set here to 0). The request says that its summary follows
// tomorrow, and "Automatisch vorbereiten" says why nothing happens, with and without JavaScript.
// On a phone.
test.use({ viewport: { width: 390, height: 844 } });

test("with the AI budget used up, the summary waits visibly and a manual action says why", async ({
  page,
  loginAsNew,
  seed,
  javaScriptEnabled,
}, testInfo) => {
  seed.configuration({ ai: { dailyLimit: 0, manualDailyLimit: 0 } });
  const name = `Budget ${Math.random().toString(36).slice(2, 8)}`;
  const id = await seed.request({ name });
  await loginAsNew(page);
  await page.goto(`/admin/requests?requestId=${id}`);
  const view = page.getByRole("dialog", { name });
  await expect(view).toBeVisible();
  if (javaScriptEnabled) await waitForHydration(page);
  const held = view.getByText("Zusammenfassung folgt morgen (Tageslimit der KI erreicht).");
  await held.scrollIntoViewIfNeeded();
  await expect(held).toBeInViewport();
  await page.screenshot({ path: testInfo.outputPath("summary-held-390.png") });
  if (javaScriptEnabled) {
    const results = await axeOn(page).analyze();
    expect(results.violations.map((v) => `${v.id} ${v.nodes[0]?.target}`)).toEqual([]);
  }

  await view.getByRole("button", { name: "Automatisch vorbereiten" }).click();
  // Announced: the toast region is aria-live.
  const toasts = page.getByRole("region", { name: "Benachrichtigungen" });
  await expect(toasts).toHaveAttribute("aria-live", "polite");
  const message = toasts.getByText(
    "Das Tageslimit für Ihre KI-Aktionen ist erreicht (0 pro Tag).",
    {
      exact: false,
    },
  );
  await expect(message).toBeVisible();
  await expect(message).toBeInViewport();
  await page.screenshot({ path: testInfo.outputPath("manual-refused-390.png") });
});
