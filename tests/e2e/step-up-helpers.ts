import type { Page } from "@playwright/test";
import { expect } from "./fixtures";

/**
 * Passes the step-up the server asks for before power over another admin (ADR 315): with
 * JavaScript a dialog, without it a section at the top of the page — either way the password field
 * has the focus. Types the acting admin's password and confirms.
 */
export async function passStepUp(page: Page, password: string) {
  const form = page.locator("form[data-step-up]");
  const field = form.getByLabel("Ihr Passwort");
  await expect(field).toBeFocused();
  await field.fill(password);
  await form.getByRole("button", { name: "Bestätigen" }).click();
}
