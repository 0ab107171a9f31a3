import type { Page } from "@playwright/test";
import { requestIdOf, submitVisitorRequest } from "./fidelity-helpers";
import { expect, waitForMail } from "./fixtures";
import { waitForHydration } from "./hydration";

/**
 * A visitor sends a request, books a demo on the server-rendered booking page (works with and
 * without JS) and gets the confirmation; returns the manage link's path and the mail.
 */
export async function bookAndOpenManageLink(
  page: Page,
  javaScriptEnabled: boolean,
  who: { name: string; email: string },
) {
  await submitVisitorRequest(page, who.name, who.email, javaScriptEnabled);
  await page.goto(`/termin?anfrage=${requestIdOf(who.email)}`);
  // With JS, navigate once the page has hydrated (a click in that instant could be lost).
  if (javaScriptEnabled) await waitForHydration(page);
  await page.getByRole("link", { name: "Nächster Monat" }).click();
  await expect(page).toHaveURL(/monat=/);
  await page.locator("a[aria-label][href*='tag=']").first().click();
  const labels = page.locator("form label:has(input[name=startTime])");
  await expect(labels.first()).toBeVisible();
  await labels.first().click();
  await page.getByRole("button", { name: "Termin verbindlich buchen" }).click();
  await expect(page.getByText("Termin erfolgreich gebucht!")).toBeVisible();
  const mail = await waitForMail(who.email, /^Dein Demo-Termin am/);
  const found = mail.text.match(/https?:\/\/\S+(\/termin\/verwalten\?token=[\w.-]+)/);
  if (!found?.[1]) throw new Error("no manage link in the confirmation");
  return { path: found[1], mail };
}
