import type { Page } from "@playwright/test";
import { signIn } from "./auth";
import { expect, type SeedApi, test } from "./fixtures";
import { waitForHydration } from "./hydration";
import { passStepUp } from "./step-up-helpers";

/** The users page deletes admins through ConfirmAction: modal with JS, confirmation step without. */
async function openUsers(page: Page, javaScriptEnabled: boolean, seed: SeedApi) {
  const me = await seed.admin();
  const target = await seed.admin();
  await signIn(page, me, { to: "/admin/users" });
  if (javaScriptEnabled) await waitForHydration(page);
  const row = page.getByRole("row").filter({ hasText: target.username });
  await expect(row).toBeVisible();
  const opener = page.getByRole("button", { name: `${target.username} löschen`, exact: true });
  return { me, target, row, opener };
}

test("confirm dialog: Escape, backdrop and 'Abbrechen' cancel, Enter confirms", async ({
  page,
  javaScriptEnabled,
  seed,
}) => {
  const { me, target, row, opener } = await openUsers(page, javaScriptEnabled, seed);

  if (!javaScriptEnabled) {
    // Server-rendered confirmation step: message, confirm button, cancel link.
    await opener.click();
    const step = page.locator("[data-confirmation-step]");
    await expect(step.getByRole("heading", { name: "Admin löschen" })).toBeVisible();
    await expect(step).toContainText(`„${target.username}“ wirklich löschen`);
    await step.getByRole("link", { name: "Abbrechen" }).click();
    await expect(page.locator("[data-confirmation-step]")).toHaveCount(0);
    await expect(row).toBeVisible();

    await opener.click();
    // product-spec "Generic modal system": "Buttons: 'OK', 'Bestätigen', 'Abbrechen'".
    await step.getByRole("button", { name: "Bestätigen", exact: true }).click();
    // Then the step-up (ADR 315): the password of the acting admin.
    await passStepUp(page, me.password);
    await expect(page).toHaveURL(/\/admin\/users$/);
    await expect(row).toHaveCount(0);
    const toast = page.locator("[data-toast=success]");
    await expect(toast).toContainText(`${target.username} wurde gelöscht`);
    // Dismissible without JS (CSS only).
    await toast.locator("label").click();
    await expect(toast).toBeHidden();
    return;
  }

  const dialog = page.getByRole("alertdialog", { name: "Admin löschen" });
  // product-spec "Generic modal system": "Buttons: 'OK', 'Bestätigen', 'Abbrechen'".
  const confirmButton = dialog.getByRole("button", { name: "Bestätigen", exact: true });
  const cancelButton = dialog.getByRole("button", { name: "Abbrechen" });

  // Escape cancels and gives the focus back.
  await opener.click();
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveAttribute("aria-modal", "true");
  await expect(dialog).toContainText(`„${target.username}“ wirklich löschen`);
  await expect(confirmButton).toBeFocused();
  const zIndex = await dialog.evaluate((el) => getComputedStyle(el.parentElement!).zIndex);
  expect(zIndex).toBe("50");
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(opener).toBeFocused();
  await expect(row).toBeVisible();

  // A backdrop click acts like Escape.
  await opener.click();
  await expect(dialog).toBeVisible();
  await page.mouse.click(3, 3);
  await expect(dialog).toHaveCount(0);

  // Focus stays inside; Enter on 'Abbrechen' cancels instead of confirming.
  await opener.click();
  await page.keyboard.press("Tab");
  await expect(cancelButton).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(confirmButton).toBeFocused();
  await page.keyboard.press("Shift+Tab");
  await expect(cancelButton).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(dialog).toHaveCount(0);
  await page.reload();
  await waitForHydration(page);
  await expect(row).toBeVisible();

  // Enter confirms: the admin is deleted and a toast reports it.
  await opener.click();
  await expect(confirmButton).toBeFocused();
  await page.keyboard.press("Enter");
  await passStepUp(page, me.password);
  await expect(row).toHaveCount(0);
  const toast = page.locator("[data-toast=success]");
  await expect(toast).toContainText(`${target.username} wurde gelöscht`);
  await toast.getByRole("button", { name: "Schließen" }).click();
  await expect(toast).toHaveCount(0);
});
