import type { Page } from "@playwright/test";
import { waitForHydration } from "./hydration";

/** Turns the dark theme on as a visitor does (the header's switch on the hydrated landing page). */
export async function switchToDarkTheme(page: Page) {
  await page.goto("/");
  await waitForHydration(page);
  await Promise.all([
    page.waitForResponse((r) => r.url().includes("/preferences/theme") && r.ok()),
    page.getByRole("button", { name: "Dunklen Modus aktivieren" }).click(),
  ]);
}
