import type { Browser, Page } from "@playwright/test";
import { axeOn } from "./axe";
import { requestIdOf, submitVisitorRequest } from "./fidelity-helpers";
import { expect, test, waitForMail } from "./fixtures";
import { bookAndOpenManageLink } from "./manage-helpers";
import { switchToDarkTheme } from "./theme";

// The receipt mail and its signed link (ADR 220): a visitor opens their request on another
// device (a fresh browser without cookies) and books from there; after cancelling a demo from the
// mail, the same browser books again.
test.use({ viewport: { width: 390, height: 844 } });

const PHONE = { width: 390, height: 844 };
const RECEIPT = /^Deine Anfrage ist bei uns eingegangen$/;

/** A browser the visitor never sent anything from (its own cookie jar). */
async function freshPhone(browser: Browser, baseURL: string, javaScriptEnabled: boolean) {
  const context = await browser.newContext({
    baseURL,
    javaScriptEnabled,
    viewport: PHONE,
    locale: "de-DE",
    timezoneId: "Europe/Berlin",
  });
  return context.newPage();
}

/** Picks the first free time of next month on the server-rendered booking page and books it. */
async function bookFirstSlot(page: Page) {
  await page.getByRole("link", { name: "Nächster Monat" }).click();
  await page.locator("a[aria-label][href*='tag=']").first().click();
  const labels = page.locator("form label:has(input[name=startTime])");
  await expect(labels.first()).toBeVisible();
  await labels.first().click();
  await page.getByRole("button", { name: "Termin verbindlich buchen" }).click();
  const success = page.getByText("Termin erfolgreich gebucht!");
  await expect(success).toBeVisible();
  await expect(success).toBeInViewport();
}

async function expectNoAxeViolations(page: Page, label: string) {
  const results = await axeOn(page).analyze();
  expect(results.violations.map((v) => `${label}: ${v.id} ${v.nodes[0]?.target}`)).toEqual([]);
}

test("the receipt's link opens the request in a fresh browser, which can then book a demo", async ({
  page,
  browser,
  baseURL,
  javaScriptEnabled,
}, testInfo) => {
  test.setTimeout(90_000);
  const tag = Math.random().toString(36).slice(2, 8);
  const who = { name: `Rita Receipt ${tag}`, email: `rita-${tag}@example.com` };
  await submitVisitorRequest(page, who.name, who.email, javaScriptEnabled);
  const id = requestIdOf(who.email);
  const number = `#${String(id).padStart(4, "0")}`;

  const mail = await waitForMail(who.email, RECEIPT);
  expect(mail.text).toContain("Hallo Rita,");
  expect(mail.text).toContain(number);
  expect(mail.text).toContain("innerhalb von drei Tagen");
  expect(mail.text).not.toContain("Handwerksbetrieb");
  const found = mail.text.match(/https?:\/\/\S+(\/meine-anfrage\?token=[\w.-]+)/);
  expect(found?.[1]).toBeTruthy();
  const link = found?.[1] as string;

  // Another device: no cookie, so the booking page refuses at first.
  const phone = await freshPhone(browser, baseURL as string, javaScriptEnabled);
  expect((await phone.goto(`/termin?anfrage=${id}`))?.status()).toBe(404);
  await expect(
    phone.getByText("Über ihren Link öffnest du deine Anfrage auch auf diesem Gerät", {
      exact: false,
    }),
  ).toBeInViewport();

  await phone.goto(link);
  await expect(phone).toHaveURL(new RegExp(`/\\?geoeffnet=${id}#history$`));
  // Said in place, announced (role=status) and on screen.
  const notice = phone
    .getByRole("status")
    .filter({ hasText: `Deine Anfrage ${number} ist jetzt auch auf diesem Gerät gespeichert.` });
  await expect(notice).toBeVisible();
  await expect(notice).toBeInViewport();
  const card = phone.getByTestId("history-card").filter({ hasText: number });
  await expect(card).toBeVisible();
  await expect(phone.getByRole("heading", { name: "Meine Anfragen" })).toBeInViewport();
  await phone.screenshot({ path: testInfo.outputPath("restored-history-390.png") });

  // Booking and withdrawal are offered for the restored request.
  await expect(card.getByRole("link", { name: "Demo-Termin buchen" })).toBeVisible();
  await card.locator("summary").click();
  await expect(card.getByRole("button", { name: `Anfrage ${number} zurückziehen` })).toBeVisible();
  await card.getByRole("link", { name: "Demo-Termin buchen" }).click();
  await expect(phone).toHaveURL(new RegExp(`/termin\\?anfrage=${id}`));
  await bookFirstSlot(phone);
  await phone.screenshot({ path: testInfo.outputPath("booked-from-link-390.png") });
  await waitForMail(who.email, /^Dein Demo-Termin am/);
  await phone.context().close();
});

test("after cancelling a demo from the mail, the same browser books a new one", async ({
  page,
  browser,
  baseURL,
  javaScriptEnabled,
}, testInfo) => {
  test.setTimeout(120_000);
  const tag = Math.random().toString(36).slice(2, 8);
  const who = { name: `Carla Cancel ${tag}`, email: `carla-${tag}@example.com` };
  const { path } = await bookAndOpenManageLink(page, javaScriptEnabled, who);
  const id = requestIdOf(who.email);

  // The confirmation mail is opened on the phone, which never sent the request.
  const phone = await freshPhone(browser, baseURL as string, javaScriptEnabled);
  await phone.goto(path);
  await phone.getByRole("link", { name: "Termin absagen" }).click();
  await phone.getByRole("button", { name: "Ja, Termin absagen" }).click();
  const done = phone.getByText("Dein Termin wurde abgesagt.");
  await expect(done).toBeVisible();
  await expect(done).toBeInViewport();
  const again = phone.getByRole("link", { name: "Neuen Termin buchen" });
  await expect(again).toBeInViewport();
  await expect(phone.getByRole("link", { name: "Meine Anfrage ansehen" })).toBeVisible();
  await phone.screenshot({ path: testInfo.outputPath("cancelled-390.png") });
  if (javaScriptEnabled) {
    await expectNoAxeViolations(phone, "cancelled page");
  }

  // The cancellation mail carries the same way back.
  const cancelled = await waitForMail(who.email, /abgesagt/);
  expect(cancelled.text).toMatch(/Neuen Termin buchen: https?:\/\/\S+\/meine-anfrage\?token=/);

  await again.click();
  await expect(phone).toHaveURL(new RegExp(`/termin\\?anfrage=${id}$`));
  await expect(phone.getByText("nur für die eigene Anfrage")).toHaveCount(0);
  await bookFirstSlot(phone);
  await phone.screenshot({ path: testInfo.outputPath("booked-again-390.png") });

  // The history of this browser now holds the request.
  await phone.goto("/#history");
  await expect(
    phone.getByTestId("history-card").filter({ hasText: `#${String(id).padStart(4, "0")}` }),
  ).toBeVisible();
  await phone.context().close();
});

test("a tampered receipt link is refused with a German page", async ({
  page,
  javaScriptEnabled,
}, testInfo) => {
  const response = await page.goto("/meine-anfrage?token=1.Zm9yZ2Vk");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Deine Anfrage");
  const message = page.getByText(
    "Dieser Link ist ungültig oder die Anfrage wurde inzwischen gelöscht.",
    {
      exact: false,
    },
  );
  await expect(message).toBeInViewport();
  await page.screenshot({ path: testInfo.outputPath("refused-390.png") });
  if (javaScriptEnabled) await expectNoAxeViolations(page, "refused link");
});

// axe runs inside the page, so only in the JS-on project; the HTML is the server's in both.
test("the pages of the link have no axe violations (light and dark) @js-only", async ({ page }) => {
  test.setTimeout(120_000);
  const tag = Math.random().toString(36).slice(2, 8);
  const who = { name: `Alma Beleg ${tag}`, email: `alma-beleg-${tag}@example.com` };
  const { path } = await bookAndOpenManageLink(page, true, who);
  const receipt = await waitForMail(who.email, RECEIPT);
  const link = receipt.text.match(/https?:\/\/\S+(\/meine-anfrage\?token=[\w.-]+)/)?.[1];
  expect(link).toBeTruthy();
  await page.goto(path);
  await page.getByRole("link", { name: "Termin absagen" }).click();
  await page.getByRole("button", { name: "Ja, Termin absagen" }).click();
  await expect(page.getByRole("link", { name: "Neuen Termin buchen" })).toBeVisible();
  const cancelledUrl = page.url();
  for (const theme of ["light", "dark"] as const) {
    if (theme === "dark") {
      await switchToDarkTheme(page);
    }
    for (const url of [link as string, cancelledUrl, "/meine-anfrage?token=x"]) {
      await page.goto(url);
      await expect(page.getByRole("heading").first()).toBeVisible();
      await expect(page.locator("html")).toHaveClass(theme === "dark" ? /dark/ : /^(?!.*dark)/);
      await expectNoAxeViolations(page, `${theme} ${url}`);
    }
  }
});
