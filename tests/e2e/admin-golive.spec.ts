import { randomBytes } from "node:crypto";
import type { Locator, Page } from "@playwright/test";
import { inArray } from "drizzle-orm";
import { db } from "~/server/platform/db.server";
import { webhookDeliveries } from "~db/schema";
import { signIn } from "./auth";
import { axeOn } from "./axe";
import { expect, type SeedApi, test } from "./fixtures";
import { waitForHydration } from "./hydration";

// ADRs 235, 236: settings that cannot silently fail, a denser lead list, a German
// notice for an unknown request, the phone header, affiliate actions on a phone, outbox states.

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const VIEWPORTS = [PHONE, DESKTOP];

type Box = { x: number; y: number; width: number; height: number };
const tag = () => randomBytes(3).toString("hex");

async function box(locator: Locator): Promise<Box> {
  const found = await locator.boundingBox();
  expect(found, "element has a box").toBeTruthy();
  return found as Box;
}

/** Puts `field` under the sticky save bar (its bottom 20 px above the window's lower edge). */
async function hideUnderSaveBar(page: Page, field: Locator) {
  await field.evaluate((el) => {
    const r = el.getBoundingClientRect();
    window.scrollBy(0, r.bottom - (window.innerHeight - 20));
  });
  const bar = await box(page.locator("[data-save-bar]"));
  const f = await box(field);
  expect(f.y + f.height, "the field sits under the save bar").toBeGreaterThan(bar.y);
}

/** The field is on screen, wholly above the sticky save bar, and focused. */
async function expectAboveSaveBar(page: Page, field: Locator) {
  await expect(field).toBeFocused();
  await expect(field).toBeInViewport({ ratio: 1 });
  const bar = await box(page.locator("[data-save-bar]"));
  const f = await box(field);
  expect(f.y + f.height, JSON.stringify({ field: f, bar })).toBeLessThanOrEqual(bar.y);
}

test("settings: leaving with unsaved changes asks first (in-app link and page unload) @js-only", async ({
  page,
  openSettings,
}) => {
  await openSettings(page, { viewport: DESKTOP });
  const bannerText = page.getByLabel("Text", { exact: true });
  const text = `Ungespeichert ${tag()}`;
  await bannerText.fill(text);
  await expect(page.getByText("Ungespeicherte Änderungen")).toBeVisible();

  // An in-app link: a German confirmation; "Abbrechen" stays with the typed value.
  await page.getByRole("navigation", { name: "Admin-Bereiche" }).getByRole("link").first().click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog).toContainText("Ungespeicherte Änderungen");
  await expect(dialog).toContainText(
    "Sie haben Änderungen an der Konfiguration noch nicht gespeichert.",
  );
  await dialog.getByRole("button", { name: "Abbrechen" }).click();
  await expect(page).toHaveURL(/\/admin\/settings$/);
  await expect(bannerText).toHaveValue(text);

  // Leaving the document (closing the tab, reloading, "Zur Website"): the browser's own
  // beforeunload dialog; staying keeps the page and the typed value.
  const unload = page.waitForEvent("dialog");
  await page.close({ runBeforeUnload: true });
  const asked = await unload;
  expect(asked.type()).toBe("beforeunload");
  await asked.dismiss();
  expect(page.isClosed()).toBe(false);
  await expect(bannerText).toHaveValue(text);

  // Saved: a toast, and leaving no longer asks.
  await page.getByRole("button", { name: "Konfiguration speichern" }).click();
  await expect(page.getByText("Konfiguration erfolgreich gespeichert!")).toBeVisible();
  await expect(page.getByText("Ungespeicherte Änderungen")).toHaveCount(0);
  await page.getByRole("navigation", { name: "Admin-Bereiche" }).getByRole("link").first().click();
  await expect(page).not.toHaveURL(/\/admin\/settings$/);

  // Undoing the change is not a change; a confirmed leave discards it.
  await page.goto("/admin/settings");
  await waitForHydration(page);
  await bannerText.fill(`${text}!`);
  await expect(page.getByText("Ungespeicherte Änderungen")).toBeVisible();
  await bannerText.fill(text);
  await expect(page.getByText("Ungespeicherte Änderungen")).toHaveCount(0);
  await bannerText.fill(`${text}?`);
  await page.getByRole("navigation", { name: "Admin-Bereiche" }).getByRole("link").first().click();
  await page
    .getByRole("alertdialog")
    .getByRole("button", { name: "Verlassen und verwerfen" })
    .click();
  await expect(page).not.toHaveURL(/\/admin\/settings$/);
});

test("settings: no unsaved-changes marker after loading, reloading or saving (390 px) @js-only", async ({
  page,
  loginAsNew,
  seed,
}, testInfo) => {
  seed.configuration({});
  await page.setViewportSize(PHONE);
  await loginAsNew(page);
  const marker = page.locator("[data-save-bar] p[aria-live]");
  const asked: string[] = [];
  page.on("dialog", (dialog) => {
    asked.push(dialog.type());
    void dialog.accept();
  });
  /** The page's React work after hydration is done: its effects run before the next frames. */
  const settled = () =>
    page.evaluate(
      () =>
        new Promise<void>((done) =>
          requestAnimationFrame(() => requestAnimationFrame(() => done())),
        ),
    );

  // Opened and reloaded without a change: nothing is marked, so leaving does not ask.
  await page.goto("/admin/settings");
  await waitForHydration(page);
  await settled();
  await expect(marker).toHaveText("");
  await page.reload();
  await waitForHydration(page);
  await settled();
  await expect(marker).toHaveText("");
  expect(asked).toEqual([]);

  // Changed: marked; saved: the toast, no marker, and leaving (reload, in-app link) does not ask.
  const bannerText = page.getByLabel("Text", { exact: true });
  await bannerText.fill(`Gespeichert ${tag()}`);
  await expect(marker).toHaveText("Ungespeicherte Änderungen");
  await page.getByRole("button", { name: "Konfiguration speichern" }).click();
  await expect(page.getByText("Konfiguration erfolgreich gespeichert!")).toBeVisible();
  await settled();
  await expect(marker).toHaveText("");
  await page.screenshot({ path: testInfo.outputPath("settings-saved-clean-390.png") });
  await page.reload();
  await waitForHydration(page);
  await settled();
  await expect(marker).toHaveText("");

  // A save the stored configuration does not change (the server trims the text): the form shows
  // what is stored, unmarked.
  const note = page.getByLabel("Datenschutzhinweis beim Formular");
  const stored = await note.inputValue();
  await note.fill(`${stored}   `);
  await expect(marker).toHaveText("Ungespeicherte Änderungen");
  await page.getByRole("button", { name: "Konfiguration speichern" }).click();
  await expect(page.getByText("Konfiguration erfolgreich gespeichert!")).toBeVisible();
  await settled();
  await expect(marker).toHaveText("");
  await expect(note).toHaveValue(stored);
  await page.getByRole("navigation", { name: "Admin-Bereiche" }).getByRole("link").first().click();
  await expect(page).not.toHaveURL(/\/admin\/settings$/);
  await expect(page.getByRole("alertdialog")).toHaveCount(0);
  expect(asked).toEqual([]);
});

for (const viewport of VIEWPORTS) {
  test(`settings at ${viewport.width} px: an invalid field is shown above the sticky save bar with its message`, async ({
    page,
    openSettings,
    javaScriptEnabled,
  }, testInfo) => {
    await openSettings(page, { viewport });
    const hours = page.getByLabel("Zusätzliche Stunden");
    const message = page.getByText("Bitte geben Sie eine ganze Zahl von 0 bis 24 ein.");
    await hours.fill("30");
    await hideUnderSaveBar(page, hours);

    // The browser's own check: it focuses the field, which scrolls above the bar.
    await page.getByRole("button", { name: "Konfiguration speichern" }).click();
    await expectAboveSaveBar(page, hours);
    expect(await hours.evaluate((el) => (el as HTMLInputElement).validationMessage)).not.toBe("");
    if (javaScriptEnabled) {
      // With JS the message is the German one, under the field and linked to it.
      await expect(message).toBeVisible();
      await expect(message).toBeInViewport();
      await expect(hours).toHaveAccessibleDescription(
        "Bitte geben Sie eine ganze Zahl von 0 bis 24 ein.",
      );
      expect(await hours.evaluate((el) => (el as HTMLInputElement).validationMessage)).toBe(
        "Bitte geben Sie eine ganze Zahl von 0 bis 24 ein.",
      );
    }
    await page.screenshot({
      path: testInfo.outputPath(`settings-browser-check-${viewport.width}.png`),
    });

    // The server's check (the browser's bypassed): refused with the German message at the field,
    // which is focused above the bar, and a toast says nothing was saved.
    await hours.evaluate((el) => el.removeAttribute("max"));
    await hours.fill("30");
    await hideUnderSaveBar(page, hours);
    await page.getByRole("button", { name: "Konfiguration speichern" }).click();
    const toast = page.locator("[data-toast=error]", {
      hasText: "Die Konfiguration wurde nicht gespeichert. Bitte prüfen Sie die markierten Felder.",
    });
    await expect(toast).toBeVisible();
    await expect(message).toBeVisible();
    await expectAboveSaveBar(page, hours);
    await expect(message).toBeInViewport();
    await expect(hours).toHaveValue("30");
    await expect(hours).toHaveAttribute("aria-invalid", "true");
    await page.screenshot({
      path: testInfo.outputPath(`settings-server-check-${viewport.width}.png`),
    });

    // Corrected: saved, with the saved toast.
    await hours.fill("2");
    await page.getByRole("button", { name: "Konfiguration speichern" }).click();
    await expect(page.getByText("Konfiguration erfolgreich gespeichert!")).toBeVisible();
    await expect(page.getByLabel("Zusätzliche Stunden")).toHaveValue("2");
  });
}

/** Seeds `count` requests with `t` in their names; the first has everything a row can show. */
async function seedLeads(seed: SeedApi, t: string, code: string, count: number) {
  const email = `stamm-${t}@example.com`;
  await seed.request({ name: `Frueher ${t}`, email });
  await seed.request({
    name: `Voll ${t}`,
    email,
    companyDescription: `Tischlerei Voll ${t}\nZweite Zeile`,
    description: `Eine App für Aufmaß und Angebote ${t}.`,
    affiliateCode: code,
    utmSource: "newsletter",
  });
  for (let i = 2; i < count; i++)
    await seed.request({ name: `Lead ${i} ${t}`, referrer: "https://www.google.com/" });
}

test("lead list at 1280 px: rows show every field in at most 80 px; compact mode shows more", async ({
  page,
  loginAsNew,
  seed,
  javaScriptEnabled,
}, testInfo) => {
  const t = tag();
  const code = seed.affiliateCode({ discountValue: 15, name: `Agentur ${t}` });
  await seedLeads(seed, t, code.code, 12);
  await page.setViewportSize(DESKTOP);
  await loginAsNew(page);
  await page.goto(`/admin/requests?q=${t}&sort=oldest`);
  if (javaScriptEnabled) await waitForHydration(page);
  const rows = page.getByTestId("request-row");
  await expect(rows).toHaveCount(12);
  await page.screenshot({ path: testInfo.outputPath("requests-1280.png") });

  const full = rows.filter({ hasText: `Voll ${t}` });
  await expect(full.locator("[data-request-name]")).toHaveText(`Voll ${t}`);
  await expect(full.locator("[data-request-company]")).toHaveText(`Tischlerei Voll ${t}`);
  await expect(full.locator("[data-request-summary]")).toHaveText(/\S/);
  await expect(full.locator("[data-request-source]")).toHaveText("Quelle: newsletter");
  await expect(full.locator("[data-request-code]")).toHaveText(
    `Code ${code.code} · Agentur ${t} · 15 % Rabatt`,
  );
  await expect(full.locator("[data-duplicate-badge]")).toHaveText("1 frühere Anfrage");
  const meta = full.locator("[data-row-part=meta]");
  await expect(meta.getByText("Neu", { exact: true })).toBeVisible();
  await expect(meta.getByText(/\d{2}\.\d{2}\.\d{4}/)).toBeVisible();
  // A referrer without utm_source names its host.
  await expect(rows.filter({ hasText: `Lead 2 ${t}` }).locator("[data-request-source]")).toHaveText(
    "Quelle: www.google.com",
  );
  for (const part of ["[data-request-company]", "[data-request-source]", "[data-request-code]"])
    await expect(full.locator(part)).toBeInViewport();

  for (const row of await rows.all()) {
    const { height } = await box(row);
    expect(height, "a row is at most 80 px high").toBeLessThanOrEqual(80);
  }
  // Whole rows on an 800 px screen: on the first screen (below header and filters) and once the
  // list is scrolled to its first row.
  const visible = async () => {
    let n = 0;
    for (const row of await rows.all()) {
      const b = await box(row);
      if (b.y >= 0 && b.y + b.height <= DESKTOP.height) n++;
    }
    return n;
  };
  const scrolledToList = async () => {
    await rows.first().evaluate((el) => el.scrollIntoView({ block: "start" }));
    const n = await visible();
    await page.evaluate(() => window.scrollTo(0, 0));
    return n;
  };
  expect(await visible(), "whole rows on the first screen").toBeGreaterThanOrEqual(3);
  const comfortable = await scrolledToList();
  expect(comfortable, "whole rows per 800 px of list").toBeGreaterThanOrEqual(8);

  // Compact: one line per request, kept in a cookie (the next visit is compact too).
  const toggle = page.getByRole("button", { name: "Kompakte Ansicht" });
  await expect(toggle).toHaveAttribute("aria-pressed", "false");
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-pressed", "true");
  await expect(page).toHaveURL(new RegExp(`q=${t}`));
  await expect(full.locator("[data-request-summary]")).toHaveCount(0);
  await expect(full.locator("[data-request-code]")).toBeVisible();
  await expect(full.locator("[data-duplicate-badge]")).toBeVisible();
  // Without JS the toggle answers with a new document: measured once its stylesheet applies.
  await page.waitForLoadState("load");
  for (const row of await rows.all())
    expect((await box(row)).height, "a compact row").toBeLessThanOrEqual(56);
  await page.screenshot({ path: testInfo.outputPath("requests-compact-1280.png") });
  expect(await scrolledToList(), "compact rows per 800 px of list").toBeGreaterThanOrEqual(12);
  await page.goto(`/admin/requests?q=${t}`);
  await expect(page.getByRole("button", { name: "Kompakte Ansicht" })).toHaveAttribute(
    "aria-pressed",
    "true",
  );
  await page.getByRole("button", { name: "Kompakte Ansicht" }).click();
  await expect(page.getByRole("button", { name: "Kompakte Ansicht" })).toHaveAttribute(
    "aria-pressed",
    "false",
  );
  await expect(full.locator("[data-request-summary]")).toBeVisible();
});

test("lead list at 390 px: every field of a row on screen, nothing overlapping", async ({
  page,
  loginAsNew,
  seed,
}, testInfo) => {
  const t = tag();
  const code = seed.affiliateCode({ discountValue: 10, name: `Partner ${t}` });
  await seedLeads(seed, t, code.code, 3);
  await page.setViewportSize(PHONE);
  await loginAsNew(page);
  await page.goto(`/admin/requests?q=${t}`);
  const full = page.getByTestId("request-row").filter({ hasText: `Voll ${t}` });
  await full.scrollIntoViewIfNeeded();
  for (const part of [
    "[data-request-name]",
    "[data-request-company]",
    "[data-request-source]",
    "[data-request-code]",
    "[data-duplicate-badge]",
  ]) {
    const b = await box(full.locator(part));
    expect(b.x + b.width, `${part} inside the screen`).toBeLessThanOrEqual(PHONE.width);
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    PHONE.width,
  );
  await page.screenshot({ path: testInfo.outputPath("requests-390.png"), fullPage: true });
});

for (const viewport of VIEWPORTS) {
  test(`an unknown requestId at ${viewport.width} px says so in German at the top`, async ({
    page,
    loginAsNew,
  }, testInfo) => {
    await page.setViewportSize(viewport);
    await loginAsNew(page);
    await page.goto("/admin/requests?requestId=987654");
    const notice = page.getByRole("alert").filter({ hasText: "Anfrage #" });
    await expect(notice).toContainText("gibt es nicht (mehr)");
    await expect(notice).toContainText("Sie wurde gelöscht oder der Link ist falsch.");
    await expect(notice).toBeInViewport();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await page.screenshot({ path: testInfo.outputPath(`unknown-request-${viewport.width}.png`) });
    await notice.getByRole("link", { name: "Hinweis schließen" }).click();
    await expect(page).not.toHaveURL(/requestId=/);
    await expect(page.getByRole("alert").filter({ hasText: "Anfrage #" })).toHaveCount(0);
  });

  test(`admin header at ${viewport.width} px: the welcome is whole, on one line @static`, async ({
    page,
    seed,
  }, testInfo) => {
    await page.setViewportSize(viewport);
    const admin = await seed.admin();
    await signIn(page, admin, { to: "/admin/dashboard" });
    const welcome = page.locator("header [data-welcome]");
    await expect(welcome).toHaveText(`Willkommen, ${admin.username}`);
    await expect(welcome).toBeInViewport({ ratio: 1 });
    const fits = await welcome.evaluate((el) => ({
      clipped: el.scrollWidth > el.clientWidth,
      lines: Math.round(
        el.getBoundingClientRect().height / Number.parseFloat(getComputedStyle(el).lineHeight),
      ),
    }));
    expect(fits).toEqual({ clipped: false, lines: 1 });
    for (const control of [
      page.locator("header").getByRole("link", { name: "Zur Website" }),
      page.locator("header").getByRole("button", { name: "Abmelden" }),
    ])
      await expect(control).toBeInViewport({ ratio: 1 });
    await page.locator("header").screenshot({
      path: testInfo.outputPath(`admin-header-${viewport.width}.png`),
    });
  });
}

test("affiliate codes at 390 px: every action of a code is on screen", async ({
  page,
  loginAsNew,
  seed,
  javaScriptEnabled,
}, testInfo) => {
  await page.setViewportSize(PHONE);
  const code = seed.affiliateCode({ discountValue: 20, name: `Handy ${tag()}` });
  await loginAsNew(page);
  await page.goto("/admin/affiliate-codes");
  if (javaScriptEnabled) await waitForHydration(page);
  const row = page.locator("tr", { hasText: code.code });
  await expect(row).toContainText("20%");
  const actions = [
    javaScriptEnabled
      ? row.getByRole("button", { name: "Kopieren", exact: true })
      : row.getByRole("textbox", { name: "Kopieren", exact: true }),
    row.getByRole("button", { name: `${code.code} deaktivieren` }),
    row.getByRole("button", { name: `${code.code} löschen` }),
  ];
  for (const action of actions) {
    await action.scrollIntoViewIfNeeded();
    await expect(action).toBeInViewport({ ratio: 1 });
    const b = await box(action);
    expect(b.x + b.width, "no horizontal scrolling needed").toBeLessThanOrEqual(PHONE.width);
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    PHONE.width,
  );
  await page.screenshot({ path: testInfo.outputPath("affiliates-390.png"), fullPage: true });
  // Usable where it is: deactivate from the card.
  await actions[1]?.click();
  await expect(page.locator("tr", { hasText: code.code })).toContainText("Inaktiv");
});

test("outbox: a failed webhook says so while its row is collapsed @static", async ({
  page,
  loginAsNew,
}, testInfo) => {
  const t = tag();
  // Two deliveries the sender will not touch (next attempt far ahead / given up).
  const inserted = db()
    .insert(webhookDeliveries)
    .values([
      {
        deliveryId: `retry-${t}`,
        endpointId: "weg",
        url: `https://crm-${t}.example.com/hook`,
        event: "request.created",
        eventKey: `request.created:retry-${t}`,
        body: "{}",
        status: "pending",
        attempts: 2,
        lastError: "HTTP 500",
        nextAttemptAt: new Date(Date.now() + 3600_000),
      },
      {
        deliveryId: `failed-${t}`,
        endpointId: "weg",
        url: `https://slack-${t}.example.com/hook`,
        event: "request.created",
        eventKey: `request.created:failed-${t}`,
        body: "{}",
        status: "failed",
        attempts: 8,
        lastError: "Zeitüberschreitung",
        nextAttemptAt: new Date(Date.now() + 3600_000),
      },
    ])
    .returning({ id: webhookDeliveries.id })
    .all();
  try {
    await page.setViewportSize(PHONE);
    await loginAsNew(page);
    await page.goto("/admin/settings/outbox");
    const retrying = page.locator("li", { hasText: `crm-${t}.example.com` });
    await expect(retrying.locator("[data-outbox-status]")).toHaveText(
      "Fehlgeschlagen – neuer Versuch geplant (2 von 8)",
    );
    await expect(retrying.locator("summary").getByText("Letzter Fehler: HTTP 500")).toBeVisible();
    const failed = page.locator("li", { hasText: `slack-${t}.example.com` });
    await expect(failed.locator("[data-outbox-status]")).toHaveText("Fehlgeschlagen (8 Versuche)");
    await expect(
      failed.locator("summary").getByText("Letzter Fehler: Zeitüberschreitung"),
    ).toBeVisible();
    await expect(retrying.locator("details")).not.toHaveAttribute("open", "");
    await retrying.scrollIntoViewIfNeeded();
    await expect(retrying.locator("[data-outbox-status]")).toBeInViewport();
    await page
      .getByRole("region", { name: /Webhooks/ })
      .screenshot({ path: testInfo.outputPath("outbox-webhooks-390.png") });
  } finally {
    db()
      .delete(webhookDeliveries)
      .where(
        inArray(
          webhookDeliveries.id,
          inserted.map((r) => r.id),
        ),
      )
      .run();
  }
});

// axe on the states this issue added, light and dark (axe runs as a script: JS on only).
for (const theme of ["light", "dark"] as const) {
  test(`issue 24 admin states have no axe violations (${theme}) @js-only`, async ({
    page,
    loginAsNew,
    seed,
  }) => {
    test.setTimeout(120_000);
    await page.emulateMedia({ colorScheme: theme });
    const t = tag();
    const code = seed.affiliateCode({ discountValue: 5, name: `Axe ${t}` });
    await seedLeads(seed, t, code.code, 3);
    seed.configuration({});
    await loginAsNew(page);
    const check = async (label: string) => {
      // Colours are judged settled: a pressed toggle's background fades in (transition-colors),
      // and axe in the middle of that fade saw white text on a still light background.
      await page.waitForFunction(() =>
        document.getAnimations().every((animation) => animation.playState !== "running"),
      );
      const results = await axeOn(page).analyze();
      expect(
        results.violations.map(
          (v) => `${label}: ${v.id} (${v.nodes.length}) ${v.nodes[0]?.target}`,
        ),
      ).toEqual([]);
    };
    await page.setViewportSize(DESKTOP);
    await page.goto(`/admin/requests?q=${t}&requestId=987654`);
    await expect(page.locator("[data-missing-request]")).toBeVisible();
    await check("list with notice");
    await waitForHydration(page);
    await page.getByRole("button", { name: "Kompakte Ansicht" }).click();
    await expect(page.getByRole("button", { name: "Kompakte Ansicht" })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
    await check("compact list");
    await page.getByRole("button", { name: "Kompakte Ansicht" }).click();
    await expect(page.getByRole("button", { name: "Kompakte Ansicht" })).toHaveAttribute(
      "aria-pressed",
      "false",
    );

    await page.goto("/admin/settings");
    await waitForHydration(page);
    const hours = page.getByLabel("Zusätzliche Stunden");
    await hours.evaluate((el) => el.removeAttribute("max"));
    await hours.fill("30");
    await page.getByRole("button", { name: "Konfiguration speichern" }).click();
    await expect(page.locator("[data-toast=error]")).toBeVisible();
    await check("settings refused");

    await page.setViewportSize(PHONE);
    await page.goto("/admin/affiliate-codes");
    await expect(page.locator("tr", { hasText: code.code })).toBeVisible();
    await check("affiliate cards");
    await page.goto(`/admin/requests?q=${t}`);
    await check("list at 390 px");
  });
}
