import { axeOn } from "./axe";
import { expect, test } from "./fixtures";
import { waitForHydration } from "./hydration";

// ADRs 251, 255: the settings' "Spam-Schutz und Kosten" card — the blocklist (a Conform list, each
// entry checked at its row), the quarantine's days and the daily AI limit, with and without JS.

const PHONE = { width: 390, height: 844 };
// axe over the settings page is slow on a loaded two-core machine (as in settings-lists).
test.describe.configure({ timeout: 180_000 });

test("settings: add a domain wildcard and a CIDR to the blocklist, set days and AI limit, save (390 px)", async ({
  page,
  openSettings,
  javaScriptEnabled,
}, testInfo) => {
  await openSettings(page, { viewport: PHONE });
  const section = page.locator("#spam");
  await expect(section.getByRole("heading", { name: "Spam-Schutz und Kosten" })).toBeVisible();
  await expect(section.getByRole("link", { name: "„Prüfen“" })).toHaveAttribute(
    "href",
    "/admin/requests?tab=quarantine",
  );

  const add = section.getByRole("button", { name: "Eintrag hinzufügen" });
  await add.click();
  const first = section.getByRole("textbox", { name: "Sperrlisten-Eintrag 1" });
  await expect(first).toBeFocused();
  await expect(first).toBeInViewport();
  if (!javaScriptEnabled) {
    await expect(
      page.getByText("Eintrag hinzugefügt – zum Übernehmen bitte speichern."),
    ).toBeVisible();
  }
  await first.fill("*.spam.example");
  await add.click();
  const second = section.getByRole("textbox", { name: "Sperrlisten-Eintrag 2" });
  await expect(second).toBeFocused();
  await expect(first).toHaveValue("*.spam.example");
  await second.fill("2001:db8:1::/48");
  await section.getByLabel("Anfragen in der Prüfung automatisch löschen nach (Tagen)").fill("14");
  await section.getByLabel("Automatische KI-Zusammenfassungen pro Tag höchstens").fill("50");

  if (javaScriptEnabled) {
    await expect(page.getByText("Ungespeicherte Änderungen")).toBeVisible();
    const results = await axeOn(page).include("#spam").analyze();
    expect(
      results.violations.map((v) => `${v.id} (${v.nodes.length}) ${v.nodes[0]?.target}`),
    ).toEqual([]);
  }
  await section.screenshot({ path: testInfo.outputPath("settings-spam-draft-390.png") });

  await page.getByRole("button", { name: "Konfiguration speichern" }).click();
  await expect(page.getByText("Konfiguration erfolgreich gespeichert!")).toBeVisible({
    timeout: 30_000,
  });
  await page.reload();
  await expect(section.getByRole("textbox", { name: "Sperrlisten-Eintrag 1" })).toHaveValue(
    "*.spam.example",
  );
  await expect(section.getByRole("textbox", { name: "Sperrlisten-Eintrag 2" })).toHaveValue(
    "2001:db8:1::/48",
  );
  await expect(
    section.getByLabel("Anfragen in der Prüfung automatisch löschen nach (Tagen)"),
  ).toHaveValue("14");
  await expect(
    section.getByLabel("Automatische KI-Zusammenfassungen pro Tag höchstens"),
  ).toHaveValue("50");

  // Removing an entry leaves focus on "Eintrag hinzufügen".
  if (javaScriptEnabled) await waitForHydration(page);
  await section.getByRole("button", { name: "*.spam.example entfernen" }).click();
  await expect(section.getByRole("textbox", { name: "Sperrlisten-Eintrag 2" })).toHaveCount(0);
  await expect(add).toBeFocused();
  await section.screenshot({ path: testInfo.outputPath("settings-spam-saved-390.png") });
});

test("settings: a bad blocklist entry is refused at its row, focused and in view", async ({
  page,
  openSettings,
  seed,
}, testInfo) => {
  seed.configuration({
    spam: { blocklist: ["*@bot.example"], quarantineDays: 30, heldBookingsPerDay: 3 },
  });
  await openSettings(page, { viewport: PHONE });
  const section = page.locator("#spam");
  await section.getByRole("button", { name: "Eintrag hinzufügen" }).click();
  const entry = section.getByRole("textbox", { name: "Sperrlisten-Eintrag 2" });
  await entry.fill("198.51.100.0/33");
  // Scrolled away first: the refusal brings the row back into view.
  await page.getByRole("heading", { name: "KI-System-Prompt" }).scrollIntoViewIfNeeded();
  await page.getByRole("button", { name: "Konfiguration speichern" }).click();
  await expect(
    page.locator("[data-toast=error]", { hasText: "Die Konfiguration wurde nicht gespeichert." }),
  ).toBeVisible();
  await expect(entry).toHaveAttribute("aria-invalid", "true");
  await expect(entry).toHaveAccessibleDescription(
    /^Bitte geben Sie einen gültigen CIDR-Bereich ein, z\. B\. 192\.0\.2\.0\/24 oder 2001:db8::\/32\./,
  );
  await expect(entry).toBeFocused();
  await expect(entry).toBeInViewport();
  await page.screenshot({ path: testInfo.outputPath("settings-spam-refused-390.png") });

  // Nothing was saved.
  await page.goto("/admin/settings");
  await expect(section.getByRole("textbox", { name: "Sperrlisten-Eintrag 1" })).toHaveValue(
    "*@bot.example",
  );
  await expect(section.getByRole("textbox", { name: "Sperrlisten-Eintrag 2" })).toHaveCount(0);
  await page.setViewportSize({ width: 1280, height: 800 });
  await section.screenshot({ path: testInfo.outputPath("settings-spam-1280.png") });
});
