import { signIn } from "./auth";
import { expect, test } from "./fixtures";
import { waitForHydration } from "./hydration";

// The settings page's index (ADR 344): every card is listed (picked up from the cards themselves),
// each link jumps to its card, and the index stays in reach — beside the cards from 1024 px,
// one step from the save bar below; a message that appears under a field is never behind the save
// bar. At 390 and 1280 px, with and without JS.
const SIZES = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
];
/** Cards of the settings page, in order (a few: the index takes them from the page itself). */
const CARDS = [
  "KI-System-Prompt",
  "E-Mail-Benachrichtigungen",
  "Erscheinungsbild und Inhalte",
  "Barrierefreiheit",
  "Logo",
  "Webhooks",
  "Gebuchte Demos im eigenen Kalender",
];

for (const size of SIZES) {
  test(`the index lists every card and stays in reach; its links jump to the card (${size.width})`, async ({
    page,
    seed,
    javaScriptEnabled,
  }, testInfo) => {
    await page.setViewportSize(size);
    seed.configuration({});
    await signIn(page, await seed.admin(), { to: "/admin/settings" });
    if (javaScriptEnabled) await waitForHydration(page);
    const index = page.getByRole("navigation", { name: "Abschnitte" });
    const titles = await index.getByRole("link").allTextContents();
    expect(titles.filter((t) => CARDS.includes(t))).toEqual(CARDS);
    // Each entry is a card of the page: its link's target exists and holds its title.
    for (const link of await index.getByRole("link").all()) {
      const target = (await link.getAttribute("href"))?.slice(1) ?? "";
      await expect(
        page.locator(`[id="${target}"]`).getByRole("heading", { level: 2 }).first(),
      ).toHaveText((await link.textContent()) ?? "");
    }

    // Far down the page (the branding card), the index is one step away.
    await page.locator("#branding").scrollIntoViewIfNeeded();
    if (size.width >= 1024) {
      await expect(index).toBeInViewport();
    } else {
      const toIndex = page.locator("[data-save-bar]").getByRole("link", { name: "Abschnitte" });
      await expect(toIndex).toBeInViewport();
      await toIndex.click();
      await expect(index).toBeInViewport();
    }
    await index.getByRole("link", { name: "Barrierefreiheit" }).click();
    await expect(page).toHaveURL(/#accessibility$/);
    await expect(
      page.getByRole("heading", { level: 2, name: "Barrierefreiheit" }),
    ).toBeInViewport();
    await page.screenshot({ path: testInfo.outputPath(`settings-index-${size.width}.png`) });
    // No sideways scrolling with the index beside the cards.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      size.width,
    );
  });

  test(`a message under a field is never hidden by the save bar (${size.width})`, async ({
    page,
    seed,
    javaScriptEnabled,
  }) => {
    await page.setViewportSize(size);
    seed.configuration({});
    await signIn(page, await seed.admin(), { to: "/admin/settings" });
    if (javaScriptEnabled) await waitForHydration(page);
    const field = page.locator("#accessibility-feedbackDays");
    const bar = page.locator("[data-save-bar]");
    // The field just above the save bar, as it is while scrolling down the page.
    await field.evaluate((el) => {
      const barTop = document.querySelector("[data-save-bar]")?.getBoundingClientRect().top ?? 0;
      window.scrollBy(0, el.getBoundingClientRect().bottom - barTop + 4);
    });
    await field.fill("5");
    if (javaScriptEnabled) {
      // Leaving the field checks it: the message appears below it — above the bar.
      await field.evaluate((el) => (el as HTMLElement).blur());
    } else {
      // The browser's own range check would stop the post first (in its words): the form is
      // sent as by a browser that does not check, so the server's answer is what is looked at.
      await page.locator("form:has(#accessibility-feedbackDays)").evaluate((f) => {
        (f as HTMLFormElement).noValidate = true;
      });
      await page.getByRole("button", { name: "Konfiguration speichern" }).click();
    }
    const message = page.locator("#accessibility-feedbackDays-error");
    await expect(message).toHaveText("Bitte geben Sie eine ganze Zahl von 30 bis 3650 ein.");
    await expect(message).toBeInViewport();
    await expect
      .poll(async () => {
        const [m, b] = await Promise.all([message.boundingBox(), bar.boundingBox()]);
        return m && b ? b.y - (m.y + m.height) : -1;
      })
      .toBeGreaterThanOrEqual(0);
  });
}
