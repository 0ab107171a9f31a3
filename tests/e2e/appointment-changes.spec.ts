import type { Page, TestInfo } from "@playwright/test";
import { axeOn } from "./axe";
import { expect, test } from "./fixtures";
import { waitForHydration } from "./hydration";

// ADR 282: an admin moves and cancels a built-in booking from its card on Termine — moving on
// its own page with the free slots, cancelling after one question — with and without JS, on a
// phone and a desktop; the result is on the card in view and announced as a toast; axe clean.

const axeClean = async (page: Page) => {
  // Cancelled cards are faded on purpose (opacity 50 %, spec §2); they are not checked here.
  const violations = (await axeOn(page).exclude(".opacity-50").analyze()).violations;
  expect(violations.map((v) => `${v.id} ${v.nodes[0]?.target}`)).toEqual([]);
};
/** A toast in the polite live region "Benachrichtigungen" (announced, with and without JS). */
const toastOf = (page: Page, text: string | RegExp) =>
  page.getByRole("region", { name: "Benachrichtigungen" }).getByText(text);
const shot = (page: Page, testInfo: TestInfo, name: string) =>
  page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: false });

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test("an admin moves a booking to a free slot and then cancels it, from its card", async ({
      page,
      loginAsNew,
      javaScriptEnabled,
      seed,
    }, testInfo) => {
      const tag = `${viewport.width}-${javaScriptEnabled ? "js" : "nojs"}-${Date.now()}`;
      const name = `Mona Verschieben ${tag}`;
      const requestId = await seed.request({ name });
      // Ten days ahead at 08:00 Berlin (off the week's grid: only the move puts it on a slot).
      const start = new Date(Date.now() + 10 * 86_400_000);
      start.setUTCHours(7, 0, 0, 0);
      const booking = seed.appointment({
        name: "Demo-Termin",
        startTime: start,
        status: "ACCEPTED",
        requestId,
      });
      await loginAsNew(page);
      const list = `/admin/appointments?search=${encodeURIComponent(name)}`;
      await page.goto(list);
      if (javaScriptEnabled) await waitForHydration(page);
      const card = page.locator(`#termin-${booking.id}`);
      const before = (await card.locator("h2 + p").textContent()) ?? "";

      // Move: the card's link opens the slot choice (the same availability as every path).
      await card.getByRole("link", { name: /verschieben$/ }).click();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Termin verschieben");
      await expect(page.getByRole("heading", { name: /^Bisher:/ })).toBeVisible();
      await page.getByRole("link", { name: "Nächster Monat" }).click();
      await expect(page).toHaveURL(/monat=/);
      await page.locator("a[aria-label][href*='tag=']").first().click();
      const labels = page.locator("form label:has(input[name=startTime])");
      await expect(labels.first()).toBeVisible();
      await labels.nth(1).click();
      await shot(page, testInfo, `move-page-${tag}`);
      if (javaScriptEnabled) await axeClean(page);
      await page.getByRole("button", { name: "Termin verschieben" }).click();

      // Back on the list the admin came from, on the card, with an announced toast.
      await expect(page).toHaveURL(
        new RegExp(`/admin/appointments\\?search=.*#termin-${booking.id}$`),
      );
      const moved = toastOf(page, /^Termin auf .+ verschoben/);
      await expect(moved).toBeVisible();
      await expect(moved).toBeInViewport();
      const after = page.locator(`#termin-${booking.id}`);
      await expect(after).toBeInViewport();
      await expect(after.locator("h2 + p")).not.toHaveText(before);
      await expect(after).toHaveAttribute("data-status", "ACCEPTED");
      await shot(page, testInfo, `moved-${tag}`);

      // Cancel: one question on the card (its step in the URL), "no" keeps it, then the real form.
      // Clicked, not by keyboard: the page leaves room under the move's toast (which stays
      // without JS until it is closed), so the card's foot is not covered by it.
      const cancel = after.getByRole("link", { name: /absagen$/ });
      await cancel.scrollIntoViewIfNeeded();
      const toastBox = await page.locator("[data-toast]").first().boundingBox();
      const cancelBox = await cancel.boundingBox();
      if (toastBox && cancelBox && viewport.width >= 640) {
        expect(cancelBox.y + cancelBox.height).toBeLessThanOrEqual(toastBox.y);
      }
      await cancel.click();
      await expect(after.getByText(/wirklich absagen\?/)).toBeInViewport();
      await after.getByRole("link", { name: "Nein, Termin behalten" }).click();
      await expect(after.getByRole("button", { name: "Ja, Termin absagen" })).toHaveCount(0);
      await after.getByRole("link", { name: /absagen$/ }).click();
      const question = after.getByText(/wirklich absagen\?/);
      if (javaScriptEnabled) await expect(question).toBeFocused();
      const confirm = after.getByRole("button", { name: "Ja, Termin absagen" });
      await expect(confirm).toBeInViewport();
      if (javaScriptEnabled) await axeClean(page);
      await shot(page, testInfo, `cancel-question-${tag}`);
      await confirm.click();
      const cancelled = toastOf(page, /^Termin abgesagt/);
      await expect(cancelled).toBeVisible();
      await expect(cancelled).toBeInViewport();
      const gone = page.locator(`#termin-${booking.id}`);
      await expect(gone).toHaveAttribute("data-status", "CANCELLED");
      await expect(gone).toBeInViewport();
      await expect(gone.getByText("Abgesagt", { exact: true })).toBeVisible();
      // A cancelled booking offers neither change any more.
      await expect(gone.getByRole("link", { name: /verschieben$/ })).toHaveCount(0);
      await expect(gone.getByRole("link", { name: /absagen$/ })).toHaveCount(0);
      await expect(page).not.toHaveURL(/absagen=/);
      await shot(page, testInfo, `cancelled-${tag}`);
    });
  });
}

test("Absagen on a card far down the list lands on its question, not at the top (390 px)", async ({
  page,
  loginAsNew,
  javaScriptEnabled,
  seed,
}, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const tag = `Weit Unten ${javaScriptEnabled ? "js" : "nojs"} ${Date.now()}`;
  for (let i = 0; i < 6; i++) {
    const requestId = await seed.request({ name: `${tag} ${i}` });
    const start = new Date(Date.now() + (12 + i) * 86_400_000);
    start.setUTCHours(9, 0, 0, 0);
    seed.appointment({ name: "Demo-Termin", startTime: start, status: "ACCEPTED", requestId });
  }
  await loginAsNew(page);
  await page.goto(`/admin/appointments?search=${encodeURIComponent(tag)}&sort=next`);
  if (javaScriptEnabled) await waitForHydration(page);
  const cards = page.getByTestId("appointment-card");
  await expect(cards).toHaveCount(6);
  const lastId = (await cards.last().getAttribute("id")) ?? "";
  const card = page.locator(`#${lastId}`);
  await card.getByRole("link", { name: /absagen$/ }).click();
  await expect(page).toHaveURL(new RegExp(`absagen=\\d+#${lastId}$`));
  const question = card.getByText(/wirklich absagen\?/);
  await expect(question).toBeInViewport();
  await expect(card.getByRole("button", { name: "Ja, Termin absagen" })).toBeInViewport();
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  await shot(page, testInfo, `cancel-far-down-${javaScriptEnabled ? "js" : "nojs"}`);
});
