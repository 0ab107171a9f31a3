import type { Page } from "@playwright/test";
import { solvedAltcha } from "../altcha-solution";
import { expect } from "./fixtures";
import { waitForHydration } from "./hydration";
import { findRequestByEmail, patchConfiguration } from "./seed";

/**
 * Without JS a submission carries no proof of work and is quarantined (ADR 250): no receipt, no
 * booking mail. Flows that go on to those mails add the solution a JS browser's widget would have
 * sent — solved by the one test helper — as a hidden field of the real no-JS form post.
 */
export async function addSolvedAltcha(page: Page) {
  const payload = await solvedAltcha(new URL(page.url()).origin);
  await page.locator("#contact-form").evaluate((form, value) => {
    const field = document.createElement("input");
    field.type = "hidden";
    field.name = "altcha";
    field.value = value;
    form.append(field);
  }, payload);
}

/** Submits the landing form as a visitor (without JS: with a solved proof of work); returns the success card. */
export async function submitVisitorRequest(
  page: Page,
  name: string,
  email: string,
  javaScriptEnabled: boolean,
  baseUrl = "",
) {
  await page.goto(`${baseUrl}/`);
  if (javaScriptEnabled) await waitForHydration(page);
  const cookies = page.getByRole("button", { name: "Nur notwendige" });
  if (await cookies.isVisible()) await cookies.click();
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("E-Mail").fill(email);
  await page.getByLabel("Telefon").fill("+49 30 555 1234");
  await page
    .getByLabel("Beschreibe dein Unternehmen")
    .fill("Ein Handwerksbetrieb mit zwölf Leuten in Köln");
  await page.getByLabel("Deine Projektidee (optional)").fill("Eine App für Aufmaß und Angebote.");
  if (!javaScriptEnabled) await addSolvedAltcha(page);
  await page.getByRole("button", { name: "Anfrage senden" }).click();
  const success = page.getByTestId("submission-success");
  await expect(success).toContainText(`Vielen Dank, ${name}!`);
  return success;
}

/** The id of the newest request of an e-mail address (through the app's server modules). */
export function requestIdOf(email: string): number {
  const found = findRequestByEmail(email);
  if (!found) throw new Error(`no request of ${email}`);
  return found.id;
}

/**
 * Runs fn with configuration fields changed (through the configuration server module of this
 * worker's own stack, so no lock) and restores the saved document afterwards.
 */
export async function withConfiguration(patch: Record<string, unknown>, fn: () => Promise<void>) {
  const restore = patchConfiguration(patch);
  try {
    await fn();
  } finally {
    restore();
  }
}
