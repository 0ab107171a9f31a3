import type { Page } from "@playwright/test";
import { signIn } from "./auth";
import { expect, type SeedApi, test } from "./fixtures";
import { waitForHydration } from "./hydration";

/** Seeds a request through the public API (optionally with a PDF attachment); returns its id. */
function seedRequest(
  seed: SeedApi,
  marker: string,
  extra: { name?: string; phone?: string; withFile?: boolean } = {},
) {
  return seed.request({
    name: extra.name ?? `Kundin ${marker}`,
    email: `${marker}@example.com`,
    phone: extra.phone ?? "+49 30 1234 5678",
    companyDescription: `Bäckerei ${marker} mit drei Filialen in Berlin`,
    description: `Eine App für Vorbestellungen ${marker}.`,
    pdf: extra.withFile ? "Lastenheft.pdf" : undefined,
  });
}

const marker = () => Math.random().toString(16).slice(2, 10);

/** A row's expand control: a link without JS (`?expand=`), a button with JS (ADR 190). */
function expandControl(page: Page, name: string) {
  const label = `Details zu ${name}`;
  return page.getByRole("button", { name: label }).or(page.getByRole("link", { name: label }));
}

async function openRow(page: Page, name: string) {
  await expandControl(page, name).click();
}

test("search, filter, sort and chips live in the URL", async ({
  page,
  loginAsNew,
  javaScriptEnabled,
  seed,
}) => {
  const m = marker();
  await seedRequest(seed, m, { name: `Erste ${m}` });
  await seedRequest(seed, m, { name: `Zweite ${m}`, phone: "0171 555 12 34" });
  await loginAsNew(page);
  await page.goto(`/admin/requests?q=${m}`);
  await expect(page.getByRole("heading", { name: /Aktive Anfragen \(2\)/ })).toBeVisible();
  await expect(page.getByRole("link", { name: `Filter entfernen: Suche: „${m}“` })).toBeVisible();

  // Sort oldest first through the filter form.
  if (javaScriptEnabled) await waitForHydration(page);
  await page.getByLabel("Sortierung").selectOption("oldest");
  await page.getByRole("button", { name: "Filter anwenden" }).click();
  await expect(page).toHaveURL(/sort=oldest/);
  // toHaveText waits for the new page's list; a one-off read could catch the page while it streams.
  await expect(page.locator("ul [data-request-name]")).toHaveText([`Erste ${m}`, `Zweite ${m}`]);

  // Phone digits match regardless of spaces; umlaut-free spelling finds "Bäckerei".
  await page.goto("/admin/requests?q=01715551234");
  await expect(expandControl(page, `Zweite ${m}`)).toBeVisible();
  await page.goto(`/admin/requests?q=backerei+${m}&status=New`);
  await expect(page.getByRole("heading", { name: /\(2\)/ })).toBeVisible();
  await page.getByRole("link", { name: "Alle Filter zurücksetzen" }).click();
  await expect(page).toHaveURL(/\/admin\/requests$/);
});

test("status, assignment, archive and restore", async ({ page, javaScriptEnabled, seed }) => {
  const m = marker();
  const id = await seedRequest(seed, m);
  const admin = await seed.admin();
  await signIn(page, admin, { to: `/admin/requests?q=${m}` });
  if (javaScriptEnabled) await waitForHydration(page);
  await openRow(page, `Kundin ${m}`);

  const status = page.getByLabel(`Status von Anfrage ${id}`).first();
  if (javaScriptEnabled) {
    // By keyboard: the select saves on change and keeps the focus (the next arrow key changes it
    // again, it does not scroll the page).
    await status.focus();
    await status.selectOption("In Progress");
    await expect(page.getByText("Status gespeichert.")).toBeVisible();
    await expect(page.getByLabel(`Status von Anfrage ${id}`).first()).toBeFocused();
  } else {
    await status.selectOption("In Progress");
    await page.getByRole("button", { name: "Status speichern" }).first().click();
    await expect(page.getByText("Status gespeichert.")).toBeVisible();
  }
  await page.goto(`/admin/requests?q=${m}&status=In+Progress`);
  await expect(page.getByRole("heading", { name: /\(1\)/ })).toBeVisible();

  await openRow(page, `Kundin ${m}`);
  if (javaScriptEnabled) await page.getByRole("tab", { name: "Zuweisung" }).click();
  await page.getByLabel("Admin zuweisen").selectOption({ label: admin.username });
  await page.getByRole("button", { name: "Zuweisen" }).click();
  await expect(page.getByText(`${admin.username} wurde zugewiesen.`)).toBeVisible();
  await page.goto("/admin/requests?tab=mine");
  await expect(expandControl(page, `Kundin ${m}`)).toBeVisible();
  await openRow(page, `Kundin ${m}`);
  if (javaScriptEnabled) await page.getByRole("tab", { name: "Zuweisung" }).click();
  await page.getByRole("button", { name: `Zuweisung von ${admin.username} entfernen` }).click();
  await expect(page.getByText(`Zuweisung von ${admin.username} entfernt.`)).toBeVisible();

  await page.goto(`/admin/requests?q=${m}`);
  // Archive and restore sit in the row's quick-actions menu (no need to expand the row).
  await page.locator("summary", { hasText: "Schnellaktionen" }).click();
  await page.getByRole("button", { name: "Archivieren" }).click();
  if (javaScriptEnabled) {
    await page.getByRole("alertdialog").getByRole("button", { name: "Bestätigen" }).click();
  } else {
    await expect(page.getByText(/wirklich archivieren/)).toBeVisible();
    await page.getByRole("button", { name: "Bestätigen" }).click();
  }
  await expect(page.getByText("Anfrage archiviert.")).toBeVisible();
  await page.goto(`/admin/requests?tab=archived&q=${m}`);
  await page.locator("summary", { hasText: "Schnellaktionen" }).click();
  await page.getByRole("button", { name: "Wiederherstellen" }).click();
  if (javaScriptEnabled)
    await page.getByRole("alertdialog").getByRole("button", { name: "Bestätigen" }).click();
  else await page.getByRole("button", { name: "Bestätigen" }).click();
  await expect(page.getByText("Anfrage wiederhergestellt.")).toBeVisible();
});

test("full-screen view by URL: attachments, preparation, AI preparation and prompt", async ({
  page,
  loginAsNew,
  javaScriptEnabled,
  request,
  seed,
}) => {
  const m = marker();
  const id = await seedRequest(seed, m, { withFile: true });
  await loginAsNew(page);
  await page.goto(`/admin/requests?requestId=${id}`);
  const view = page.getByRole("dialog", { name: `Kundin ${m}` });
  await expect(view).toBeVisible();
  await expect(view.getByText(`#${String(id).padStart(4, "0")}`)).toBeVisible();
  await expect(view.getByRole("link", { name: "+49 30 1234 5678" })).toHaveAttribute(
    "href",
    "tel:+493012345678",
  );
  if (javaScriptEnabled) await waitForHydration(page);

  // View and download the attachment (admins only).
  const viewHref = await view.getByRole("link", { name: "Ansehen" }).getAttribute("href");
  const inline = await page.request.get(viewHref!);
  expect(inline.headers()["content-disposition"]).toMatch(/^inline/);
  expect(inline.headers()["x-content-type-options"]).toBe("nosniff");
  const download = await page.request.get(`${viewHref}?download=1`);
  expect(download.headers()["content-disposition"]).toMatch(
    /^attachment; filename="Lastenheft.pdf"/,
  );
  expect((await request.get(viewHref!)).status()).toBe(401);

  // Preparation fields are labelled with their configured label, never the internal name.
  await expect(view.getByText("Zielgruppe", { exact: true })).toBeVisible();
  await expect(view.getByText("zielgruppe", { exact: true })).toHaveCount(0);
  await expect(view.getByText("offeneFragen", { exact: true })).toHaveCount(0);
  // Save a preparation field by hand, then let the AI fill only the empty ones.
  await view.getByLabel("Zielgruppe").fill(`Von Hand ${m}`);
  await view.getByRole("button", { name: "Vorbereitung speichern" }).click();
  await expect(page.getByText("Vorbereitung gespeichert.")).toBeVisible();
  await view.getByRole("button", { name: "Automatisch vorbereiten" }).click();
  await expect(page.getByText(/Automatisch vorbereitet: \d+ Felder? ausgefüllt/)).toBeVisible();
  await expect(view.getByLabel("Zielgruppe")).toHaveValue(`Von Hand ${m}`);
  await expect(view.getByLabel("Kernfunktionen")).toHaveValue("KI-Vorschlag für kernfunktionen");

  await view.getByRole("button", { name: "Prompt für KI-Coding-Assistent erstellen" }).click();
  await expect(view.getByLabel("Prompt", { exact: true })).toHaveValue(
    /Prompt für den Coding-Assistenten/,
  );

  // Delete the attachment with confirmation.
  await page.getByRole("button", { name: "Lastenheft.pdf löschen" }).click();
  if (javaScriptEnabled)
    await page.getByRole("alertdialog").getByRole("button", { name: "Bestätigen" }).click();
  else await page.getByRole("button", { name: "Bestätigen" }).click();
  await expect(page.getByText("Anhang gelöscht.")).toBeVisible();
  await expect(
    page.getByRole("dialog", { name: `Kundin ${m}` }).getByText("Keine Dateien angehängt."),
  ).toBeVisible();

  // Closing removes requestId from the URL (Escape with JS).
  if (javaScriptEnabled) await page.keyboard.press("Escape");
  else await page.getByRole("link", { name: "Schließen" }).click();
  await expect(page).not.toHaveURL(/requestId=/);
});

test("dashboard shows the figures and the newest requests", async ({ page, loginAsNew, seed }) => {
  const m = marker();
  await seedRequest(seed, m);
  await loginAsNew(page);
  await page.goto("/admin/dashboard");
  await expect(page.getByText("Anfragen gesamt")).toBeVisible();
  await expect(page.getByText("Offene Einladungen")).toBeVisible();
  await page.getByRole("link", { name: new RegExp(`Kundin ${m}`) }).click();
  await expect(page).toHaveURL(/requestId=/);
  await expect(page.getByRole("dialog", { name: `Kundin ${m}` })).toBeVisible();
});
