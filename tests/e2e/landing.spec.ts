import { webmFile } from "./files";
import { expect, test } from "./fixtures";
import { waitForHydration } from "./hydration";
import { findRequestByEmail } from "./seed";

/**
 * Without JS a failed validation is answered with status 400 (the form re-rendered with messages);
 * Chromium logs that document load as a console error. Only that one message is tolerated here.
 */
const validationTest = test.extend({
  // Overrides the auto fixture of ./fixtures (it stays automatic).
  failOnConsoleError: async ({ page }, use) => {
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() !== "error") return;
      const text = message.text();
      if (/^Failed to load resource: the server responded with a status of 400/.test(text)) return;
      errors.push(text);
    });
    page.on("pageerror", (error) => errors.push(error.message));
    await use(undefined);
    expect(errors, "console errors in the page").toEqual([]);
  },
});

const unique = () => Math.random().toString(36).slice(2, 8);
const pdf = (name: string) => ({
  name,
  mimeType: "application/pdf",
  buffer: Buffer.from(`%PDF-1.4\n1 0 obj\n<<>>\nendobj\n${"x".repeat(500)}\n%%EOF\n`),
});
const png = (name: string) => ({
  name,
  mimeType: "image/png",
  buffer: Buffer.from(
    "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c63000100000500010d0a2db40000000049454e44ae426082",
    "hex",
  ),
});

async function dismissCookieBar(page: import("@playwright/test").Page) {
  await page.getByRole("button", { name: "Nur notwendige" }).click();
  await expect(page.getByRole("button", { name: "Alle akzeptieren" })).toHaveCount(0);
}

async function fillContact(
  page: import("@playwright/test").Page,
  values: { name: string; email: string; phone: string; company: string; description?: string },
) {
  await page.getByLabel("Name").fill(values.name);
  await page.getByLabel("E-Mail").fill(values.email);
  await page.getByLabel("Telefon").fill(values.phone);
  await page.getByLabel("Beschreibe dein Unternehmen").fill(values.company);
  if (values.description)
    await page.getByLabel("Deine Projektidee (optional)").fill(values.description);
}

test.describe("submission", () => {
  test("submit with two attachments (and a recording with JS); history after reload", async ({
    page,
    javaScriptEnabled,
  }) => {
    const name = `Erika ${unique()}`;
    const email = `erika.${unique()}@example.com`;
    await page.goto("/");
    await dismissCookieBar(page);
    if (javaScriptEnabled) await waitForHydration(page);
    await fillContact(page, {
      name,
      email,
      phone: "+49 30 1234567",
      company: "Wir sind ein Handwerksbetrieb mit zwölf Leuten.",
      description: "Ein Planungstool für unsere Baustellen.",
    });
    await page
      .getByLabel("Dateien anhängen (optional)")
      .setInputFiles([pdf("angebot.pdf"), png("skizze.png")]);
    if (!javaScriptEnabled) {
      // Without JS the recorder is an audio file input.
      await page.getByLabel("Sprachnachricht (optional)").setInputFiles(webmFile("nachricht.webm"));
    }
    if (javaScriptEnabled) {
      await expect(page.getByText("angebot.pdf")).toBeVisible();
      await expect(page.getByText("skizze.png")).toBeVisible();
      await page.getByRole("button", { name: "Sprachnachricht aufnehmen" }).click();
      await expect(page.getByText("Aufnahme läuft")).toBeVisible();
      await expect(page.getByTestId("recorder-timer")).toHaveText("2 s", { timeout: 5000 });
      await page.getByRole("button", { name: "Aufnahme stoppen" }).click();
      await expect(page.getByRole("button", { name: "Abspielen" })).toBeVisible();
    }
    await page.getByRole("button", { name: "Anfrage senden" }).click();
    const success = page.getByTestId("submission-success");
    await expect(success).toContainText(`Vielen Dank, ${name}!`);
    if (javaScriptEnabled) {
      // A button that loads and opens the booking dialog.
      await success.getByRole("button", { name: "Demo-Termin buchen" }).click();
      const dialog = page.getByRole("dialog");
      await expect(dialog).toBeVisible();
      await expect(dialog).toContainText(`Für: ${name}`);
      await page.keyboard.press("Escape");
      await expect(dialog).toHaveCount(0);
    } else {
      await expect(success.getByRole("link", { name: "Demo-Termin buchen" })).toHaveAttribute(
        "href",
        /^\/termin\?anfrage=\d+$/,
      );
    }
    // The form is cleared.
    await expect(page.getByLabel("Name")).toHaveValue("");

    // Read back through the app's server modules (the spec's Request JSON).
    const row = findRequestByEmail(email);
    expect(row?.attachments.map((f) => f.originalName)).toEqual(["angebot.pdf", "skizze.png"]);
    expect(row?.audioPath).toMatch(/\.webm$/);

    await page.reload();
    await expect(page.getByRole("link", { name: "Meine Anfragen" })).toBeVisible();
    const history = page.locator("#history");
    const id = `#${String(row!.id).padStart(4, "0")}`;
    await expect(history.getByText(id).first()).toBeVisible();
    const item = history.getByTestId("history-row").filter({ hasText: id });
    // The row's summary is the AI summary once the background job wrote it, else the description.
    await item.locator("summary").first().click();
    await expect(item.getByText("Ein Planungstool für unsere Baustellen.").first()).toBeVisible();
    await expect(item.getByText("angebot.pdf")).toBeVisible();
    {
      const audio = item.locator("audio");
      await expect(audio).toHaveAttribute("src", `/api/audio/${row!.audioPath}`);
      const response = await page.request.get(`/api/audio/${row!.audioPath}`);
      expect(response.status()).toBe(200);
      expect(response.headers()["content-type"]).toBe("audio/webm");
    }
  });
});

validationTest(
  "validation error round trip keeps the typed values",
  async ({ page, javaScriptEnabled }) => {
    await page.goto("/");
    await dismissCookieBar(page);
    if (javaScriptEnabled) await waitForHydration(page);
    const name = `Tom ${unique()}`;
    await fillContact(page, {
      name,
      email: "tom@example.com",
      phone: javaScriptEnabled ? "+49 89 123456" : "abc",
      company: "Zu kurz",
      description: "Meine Projektidee bleibt erhalten.",
    });
    if (javaScriptEnabled) {
      // The live counter (without JS it is rendered by the server after the round trip).
      await expect(page.getByTestId("company-counter")).toHaveText("7/20 Zeichen (mindestens)");
    }
    await page.getByRole("button", { name: "Anfrage senden" }).click();
    await expect(page.getByTestId("company-counter")).toHaveText("7/20 Zeichen (mindestens)");
    await expect(page.getByTestId("company-counter")).toHaveClass(/text-red-600/);
    await expect(
      page
        .getByTestId("contact-error-summary")
        .getByText("Bitte beschreibe dein Unternehmen mit mindestens 20 Zeichen"),
    ).toBeVisible();
    await expect(page.locator("#contact-form-companyDescription-error")).toHaveText(
      "Bitte beschreibe dein Unternehmen mit mindestens 20 Zeichen",
    );
    if (!javaScriptEnabled) {
      // At the field (the error summary links to it with the same message).
      await expect(page.locator("#contact-form-phone-error")).toHaveText(
        "Ungültiges Format. Mindestens 5 Zeichen (z.B. +49 123 456789, 0123 456789-1234)",
      );
      await expect(page.getByLabel("Telefon")).toHaveValue("abc");
    }
    await expect(page.getByLabel("Name")).toHaveValue(name);
    await expect(page.getByLabel("E-Mail")).toHaveValue("tom@example.com");
    await expect(page.getByLabel("Beschreibe dein Unternehmen")).toHaveValue("Zu kurz");
    await expect(page.getByLabel("Deine Projektidee (optional)")).toHaveValue(
      "Meine Projektidee bleibt erhalten.",
    );
  },
);

test("submit is disabled until name, e-mail and a valid phone are filled (JS)", async ({
  page,
  javaScriptEnabled,
}) => {
  await page.goto("/");
  const submit = page.getByRole("button", { name: "Anfrage senden" });
  if (!javaScriptEnabled) {
    // Without JS the server checks everything; the button stays usable.
    await expect(submit).toBeEnabled();
    return;
  }
  await waitForHydration(page);
  await expect(submit).toBeDisabled();
  await page.getByLabel("Name").fill("Ina");
  await page.getByLabel("E-Mail").fill("ina@example.com");
  await page.getByLabel("Telefon").fill("12");
  await expect(submit).toBeDisabled();
  await page.getByLabel("Telefon").fill("0221 987654");
  await expect(submit).toBeEnabled();
});

test("upload widget rejects a whole bad selection with the spec's messages (JS)", async ({
  page,
  javaScriptEnabled,
}) => {
  await page.goto("/");
  const input = page.getByLabel("Dateien anhängen (optional)");
  if (!javaScriptEnabled) {
    await expect(input).toHaveAttribute("multiple", "");
    return;
  }
  await waitForHydration(page);
  await input.setInputFiles([
    png("gut.png"),
    { name: "virus.exe", mimeType: "application/octet-stream", buffer: Buffer.from("MZ") },
  ]);
  await expect(page.getByText("Fehler beim Upload:")).toBeVisible();
  await expect(
    page.getByText(/^virus\.exe: Dateityp nicht erlaubt\. Erlaubte Formate: jpg, jpeg/),
  ).toBeVisible();
  await expect(page.getByText("gut.png")).toHaveCount(0);
  await input.setInputFiles([png("gut.png")]);
  await expect(page.getByText("gut.png")).toBeVisible();
  await page.getByRole("button", { name: "gut.png entfernen" }).click();
  await expect(page.getByText("gut.png")).toHaveCount(0);
});

test("affiliate code is shown upper-cased and stored with the request", async ({
  page,
  seed,
  javaScriptEnabled,
}) => {
  const { code } = await seed.affiliateCode({ discountValue: 15 });
  await page.goto(`/?code=${code.toLowerCase()}`);
  await dismissCookieBar(page);
  await expect(page.getByTestId("affiliate-badge")).toContainText(code);
  await expect(page.getByTestId("affiliate-badge")).toContainText("15% Rabatt aktiv");
  const email = `aff.${unique()}@example.com`;
  await fillContact(page, {
    name: "Affi Liate",
    email,
    phone: "+49 40 555666",
    company: "Eine Agentur für Events in Hamburg.",
  });
  // Typing is the first interaction that loads the page's JS (ADR 170): send once it is live.
  if (javaScriptEnabled) await waitForHydration(page);
  await page.getByRole("button", { name: "Anfrage senden" }).click();
  await expect(page.getByTestId("submission-success")).toBeVisible();
  expect(findRequestByEmail(email)?.affiliateCode).toBe(code);

  await page.goto("/?code=gibtsnicht");
  await expect(page.getByTestId("affiliate-badge")).toHaveCount(0);
});

test("consent choice and theme persist across reload", async ({ page, javaScriptEnabled }) => {
  await page.goto("/");
  await expect(page.getByRole("region", { name: "Cookie-Einstellungen" })).toBeVisible();
  await page.getByRole("button", { name: "Alle akzeptieren" }).click();
  await expect(page.getByRole("button", { name: "Alle akzeptieren" })).toHaveCount(0);
  const consent = (await page.context().cookies()).find((c) => c.name === "cookie_consent");
  expect(consent).toBeTruthy();
  expect(consent?.httpOnly).toBe(true);

  await expect(page.locator("html")).not.toHaveClass(/dark/);
  const toggle = page.getByRole("button", { name: "Dunklen Modus aktivieren" });
  if (javaScriptEnabled) {
    await waitForHydration(page);
    // With JS the class flips at once; wait for the cookie before reloading.
    await Promise.all([
      page.waitForResponse((r) => r.url().includes("/preferences/theme") && r.ok()),
      toggle.click(),
    ]);
  } else {
    await toggle.click();
  }
  await expect(page.locator("html")).toHaveClass(/dark/);
  await expect(page.getByRole("button", { name: "Hellen Modus aktivieren" })).toBeVisible();
  await page.reload();
  await expect(page.locator("html")).toHaveClass(/dark/);
  await expect(page.getByRole("button", { name: "Alle akzeptieren" })).toHaveCount(0);
  // The choice can be changed again from the footer.
  await page.getByRole("link", { name: "Cookie-Einstellungen" }).click();
  await expect(page.getByRole("button", { name: "Nur notwendige" })).toBeVisible();
});

test("info banner: closing is remembered per text", async ({
  page,
  javaScriptEnabled,
  seed,
}, testInfo) => {
  const first = `Hinweis ${testInfo.project.name} ${unique()}: Wir sind im Urlaub.`;
  const second = `Hinweis ${testInfo.project.name} ${unique()}: Wieder da!`;
  seed.configuration({ infoBanner: { enabled: true, text: first } });
  await page.goto("/");
  await expect(page.getByText(first)).toBeVisible();
  const close = page.getByRole("button", { name: "Hinweis schließen" });
  if (javaScriptEnabled) {
    await waitForHydration(page);
    // With JS the banner hides at once; wait for the cookie before reloading.
    await Promise.all([
      page.waitForResponse((r) => r.url().includes("/preferences/banner") && r.ok()),
      close.click(),
    ]);
  } else {
    await close.click();
  }
  await expect(page.getByText(first)).toHaveCount(0);
  await page.reload();
  await expect(page.getByText(first)).toHaveCount(0);
  seed.configuration({ infoBanner: { enabled: true, text: second } });
  await page.goto("/");
  await expect(page.getByText(second)).toBeVisible();
});

test("FAQ: ten questions, one open at a time", async ({ page, javaScriptEnabled }) => {
  await page.goto("/");
  const faq = page.locator("#faq details");
  await expect(faq).toHaveCount(10);
  await faq.nth(0).locator("summary").click();
  await expect(faq.nth(0)).toHaveAttribute("open", "");
  // The first click starts the page's scripts (ADR 170); the second one is made on the hydrated page
  // (a click in the middle of hydration is lazy-hydration.spec.ts's subject, not this test's).
  if (javaScriptEnabled) await waitForHydration(page);
  await faq.nth(3).locator("summary").click();
  await expect(faq.nth(3)).toHaveAttribute("open", "");
  await expect(faq.nth(0)).not.toHaveAttribute("open", "");
});

test("header, footer and responsive layout at 320 px @static", async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 700 });
  await page.goto("/");
  await expect(page.getByRole("link", { name: "Jetzt loslegen" })).toHaveAttribute(
    "href",
    "#contact",
  );
  await expect(page.getByRole("link", { name: "Meine Anfragen" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Datenschutz", exact: true })).toHaveAttribute(
    "href",
    /^https?:\/\//,
  );
  await expect(page.getByRole("link", { name: "Impressum" })).toHaveAttribute(
    "href",
    /^https?:\/\//,
  );
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth > window.innerWidth,
  );
  expect(overflow).toBe(false);
});

test("recorder: timer, delete, re-record; denied microphone shows the spec's alert (JS)", async ({
  page,
  javaScriptEnabled,
}) => {
  await page.goto("/");
  if (!javaScriptEnabled) {
    await expect(page.getByLabel("Sprachnachricht (optional)")).toHaveAttribute(
      "accept",
      "audio/*",
    );
    return;
  }
  await waitForHydration(page);
  await page.getByRole("button", { name: "Sprachnachricht aufnehmen" }).click();
  await expect(page.getByTestId("recorder-timer")).toHaveText("1 s", { timeout: 5000 });
  await page.getByRole("button", { name: "Aufnahme stoppen" }).click();
  await expect(page.getByTestId("recorder").locator("audio")).toHaveCount(1);
  await page.getByRole("button", { name: "Löschen" }).click();
  await expect(page.getByRole("button", { name: "Aufnahme starten" })).toBeVisible();
  await expect(page.getByTestId("recorder").locator("audio")).toHaveCount(0);
  await page.getByRole("button", { name: "Aufnahme starten" }).click();
  await expect(page.getByText("Aufnahme läuft")).toBeVisible();
  // A recording stopped before its first data is dropped (no "Neu aufnehmen"): stop after 1 s of audio.
  await expect(page.getByTestId("recorder-timer")).toHaveText("1 s", { timeout: 5000 });
  await page.getByRole("button", { name: "Aufnahme stoppen" }).click();
  await page.getByRole("button", { name: "Neu aufnehmen" }).click();
  await expect(page.getByText("Aufnahme läuft")).toBeVisible();
  // Stop only once a second of audio exists: a recording stopped before its first data is dropped.
  await expect(page.getByTestId("recorder-timer")).toHaveText("1 s", { timeout: 5000 });
  await page.getByRole("button", { name: "Aufnahme stoppen" }).click();
  await expect(page.getByRole("button", { name: "Abspielen" })).toBeVisible();

  // A denied microphone: the browser alert with the spec's text.
  await page.evaluate(() => {
    navigator.mediaDevices.getUserMedia = () =>
      Promise.reject(new DOMException("denied", "NotAllowedError"));
  });
  const messages: string[] = [];
  page.once("dialog", (dialog) => {
    messages.push(dialog.message());
    void dialog.accept();
  });
  await page.getByRole("button", { name: "Neu aufnehmen" }).click();
  await expect
    .poll(() => messages)
    .toEqual(["Mikrofon-Zugriff wurde verweigert oder ist nicht verfügbar."]);
  await expect(page.getByRole("button", { name: "Aufnahme starten" })).toBeVisible();
});
