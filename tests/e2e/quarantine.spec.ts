// The spam quarantine in the admin list (ADR 252), with and without JavaScript: "Prüfen (n)"
// lists the held requests, "Freigeben" makes one an ordinary request, "Löschen" erases another;
// each result is announced (toast) and the heading with the new count takes the focus.

import type { Page } from "@playwright/test";
import { axeOn } from "./axe";
import { expect, test } from "./fixtures";
import { waitForHydration } from "./hydration";
import { quarantineRequest } from "./seed";

test.use({ viewport: { width: 390, height: 844 } });

/** The nav's "Prüfen (n)" count (other specs of this worker may have left quarantined requests). */
async function quarantineCount(page: Page): Promise<number> {
  const text = await page
    .getByRole("navigation", { name: "Ansichten" })
    .getByRole("link", { name: /^Prüfen \(\d+\)$/ })
    .textContent();
  return Number(/\((\d+)\)/.exec(text ?? "")?.[1]);
}

test("admin releases one quarantined request and deletes another", async ({
  page,
  loginAsNew,
  javaScriptEnabled,
  seed,
}, testInfo) => {
  const m = Math.random().toString(16).slice(2, 10);
  const keptName = `Echte Kundin ${m}`;
  const spamName = `Spam Sender ${m}`;
  const kept = await seed.request({ name: keptName, email: `echt-${m}@example.com` });
  const spam = await seed.request({ name: spamName, email: `spam-${m}@example.com` });
  quarantineRequest(kept);
  quarantineRequest(spam);
  await loginAsNew(page);

  // Not in the default list.
  await page.goto(`/admin/requests?q=${m}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Aktive Anfragen (0)");
  const before = await quarantineCount(page);
  expect(before).toBeGreaterThanOrEqual(2);

  await page
    .getByRole("navigation", { name: "Ansichten" })
    .getByRole("link", { name: `Prüfen (${before})` })
    .click();
  await expect(page).toHaveURL(/tab=quarantine/);
  await page.goto(`/admin/requests?tab=quarantine&q=${m}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Prüfen (2)");
  // The tab counts the whole quarantine; the search's share is said in words.
  if (before > 2) {
    await expect(page.getByTestId("quarantine-hits")).toHaveText(
      `2 von ${before} Anfragen in „Prüfen“ passen zu Suche und Filtern.`,
    );
  }
  await expect(page.getByText(/Nach 30 Tagen werden sie automatisch gelöscht/)).toBeVisible();
  if (javaScriptEnabled) {
    // axe runs in the page (the a11y specs run in the JS-on project only, like this check).
    await waitForHydration(page);
    const axe = await axeOn(page).analyze();
    expect(axe.violations.map((v) => `${v.id} ${v.nodes[0]?.target}`)).toEqual([]);
  }
  await page.screenshot({ path: testInfo.outputPath("quarantine-list.png"), fullPage: true });

  // Release: the flow runs, the request leaves "Prüfen".
  await page
    .getByRole("button", { name: `Anfrage #${pad(kept)} von ${keptName} freigeben` })
    .click();
  const toasts = page.locator('[aria-live="polite"]');
  await expect(toasts.getByText(/Anfrage freigegeben\./)).toBeVisible();
  const heading = page.getByRole("heading", { level: 1 });
  await expect(heading).toHaveText("Prüfen (1)");
  await expect(heading).toBeFocused();
  await expect(heading).toBeInViewport();
  expect(await quarantineCount(page)).toBe(before - 1);
  await page.screenshot({ path: testInfo.outputPath("quarantine-released.png") });

  // Delete (asks first): erased like any request.
  await page.getByRole("button", { name: `Anfrage #${pad(spam)} von ${spamName} löschen` }).click();
  if (javaScriptEnabled) {
    await page.getByRole("alertdialog").getByRole("button", { name: "Bestätigen" }).click();
  } else {
    await expect(page.getByText(/wirklich endgültig löschen/)).toBeVisible();
    await page.getByRole("button", { name: "Bestätigen" }).click();
  }
  await expect(toasts.getByText("Anfrage gelöscht.")).toBeVisible();
  await expect(heading).toHaveText("Prüfen (0)");
  await expect(heading).toBeFocused();
  expect(await quarantineCount(page)).toBe(before - 2);
  await expect(page.getByText("Keine Anfragen gefunden.")).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("quarantine-deleted.png") });

  // The released request is an ordinary one now.
  await page.goto(`/admin/requests?q=${m}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Aktive Anfragen (1)");
  await expect(page.locator("[data-request-name]")).toHaveText([keptName]);
});

const pad = (id: number) => String(id).padStart(4, "0");
