// ADR 210: after "Anfrage senden" the result is where the visitor looks (in the
// viewport, focused, announced) at 390×844 and 1280×800, and nothing given is lost: a failed or
// unanswered submission keeps text, files and recording, its retry creates exactly one request,
// a submit during a recording sends it, and leaving with unsent files asks first.

import type { Locator, Page, Request, Route, TestInfo } from "@playwright/test";
import { listAllRequests } from "~/server/requests/queries.server";
import { axeOn } from "./axe";
import { expect, test } from "./fixtures";
import { waitForHydration } from "./hydration";
import { switchToDarkTheme } from "./theme";

/**
 * The failures provoked here are logged by Chromium as failed loads (an aborted connection, the
 * 400 of the no-JS validation answer, the 409 of a taken slot): only those are tolerated.
 */
const resultTest = test.extend({
  failOnConsoleError: async ({ page }, use) => {
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() !== "error") return;
      const text = message.text();
      if (
        /^Failed to load resource: (net::ERR_|the server responded with a status of 4\d\d)/.test(
          text,
        )
      )
        return;
      errors.push(text);
    });
    page.on("pageerror", (error) => errors.push(error.message));
    await use(undefined);
    expect(errors, "console errors in the page").toEqual([]);
  },
});

const VIEWPORTS = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 800 },
] as const;

const unique = () => Math.random().toString(36).slice(2, 8);
const pdf = (name: string) => ({
  name,
  mimeType: "application/pdf",
  buffer: Buffer.from(`%PDF-1.4\n1 0 obj\n<<>>\nendobj\n${"x".repeat(500)}\n%%EOF\n`),
});

/**
 * Every stored request of this address (through the app's server modules), the ones the spam
 * quarantine holds included (a no-JS submission has no proof of work, ADR 250).
 */
const requestsOf = (email: string) =>
  [
    ...listAllRequests({ archived: false }),
    ...listAllRequests({ archived: false, quarantined: true }),
  ].filter((r) => r.email === email);

async function open(page: Page, javaScriptEnabled: boolean) {
  await page.goto("/");
  await page.getByRole("button", { name: "Nur notwendige" }).click();
  await expect(page.getByRole("button", { name: "Alle akzeptieren" })).toHaveCount(0);
  if (javaScriptEnabled) await waitForHydration(page);
}

async function fillContact(page: Page, name: string, email: string, company?: string) {
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("E-Mail").fill(email);
  await page.getByLabel("Telefon").fill("+49 30 1234567");
  await page
    .getByLabel("Beschreibe dein Unternehmen")
    .fill(company ?? "Ein Tischlereibetrieb mit neun Leuten in Leipzig.");
  await page.getByLabel("Deine Projektidee (optional)").fill("Ein Aufmaß-Tool für die Baustelle.");
}

async function snap(page: Page, testInfo: TestInfo, name: string) {
  // Transitions finished: the shot shows the settled state the assertions saw.
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`), animations: "disabled" });
}

/**
 * The box is on screen with its top in the upper half (a box taller than the screen: its top part),
 * once a smooth scroll has come to rest.
 */
async function expectOnScreen(box: Locator, page: Page) {
  await expect(box).toBeInViewport();
  const height = page.viewportSize()?.height ?? 0;
  const top = async () => (await box.boundingBox())?.y ?? -1;
  await expect.poll(top).toBeGreaterThanOrEqual(0);
  await expect.poll(top).toBeLessThan(height / 2);
  // At rest: the same position twice in a row, so a screenshot shows what the visitor sees.
  let last = Number.NaN;
  await expect
    .poll(async () => {
      const now = await top();
      const still = now === last;
      last = now;
      return still;
    })
    .toBe(true);
}

for (const viewport of VIEWPORTS) {
  resultTest.describe(`at ${viewport.width}×${viewport.height}`, () => {
    resultTest.use({ viewport: { width: viewport.width, height: viewport.height } });

    resultTest(
      "the thank-you takes the form's place, the viewport and the focus",
      async ({ page, javaScriptEnabled }, testInfo) => {
        const name = `Tilda ${unique()}`;
        const email = `tilda.${unique()}@example.com`;
        await open(page, javaScriptEnabled);
        await fillContact(page, name, email);
        await page.getByRole("button", { name: "Anfrage senden" }).click();

        const success = page.getByTestId("submission-success");
        const heading = success.getByRole("heading", {
          name: `Vielen Dank, ${name}!`,
          exact: false,
        });
        await expect(heading).toBeVisible();
        await expect(success).toHaveAttribute("role", "status");
        await expectOnScreen(success, page);
        await expect(heading).toBeInViewport({ ratio: 1 });
        // The promise, the demo offer and the way to the visitor's requests; no mail is promised.
        await expect(success).toContainText(
          "Deine Testversion bekommst du innerhalb von drei Tagen.",
        );
        await expect(success).toContainText("Lust auf eine persönliche Demo?");
        await expect(success.getByRole("link", { name: "Deine Anfragen ansehen" })).toHaveAttribute(
          "href",
          "#history",
        );
        await expect(success).not.toContainText("E-Mail");
        expect(requestsOf(email)).toHaveLength(1);

        if (javaScriptEnabled) {
          await expect(heading).toBeFocused();
          const offer = success.getByRole("button", { name: "Demo-Termin buchen" });
          await expect(offer).toBeInViewport({ ratio: 1 });
          // The thank-you stands in the form's place: no emptied form, no disabled button.
          await expect(
            page.getByRole("button", { name: "Anfrage senden", exact: true }),
          ).toBeHidden();
          await expect(page.getByTestId("contact-submit-hint")).toBeHidden();
          await snap(page, testInfo, `thank-you-${viewport.name}`);
          // The emptied form comes back on request, its first field focused.
          await success.getByRole("button", { name: "Weitere Anfrage senden" }).click();
          await expect(page.getByLabel("Name")).toBeFocused();
          await expect(page.getByLabel("Name")).toHaveValue("");
          await expect(page.getByLabel("Name")).toBeInViewport();
          await expect(success).toHaveCount(0);
        } else {
          // The answer page opens at the result: sent without the proof of work, the thanks is
          // followed by the script-free question, its field focused (ADR 326), then the demo offer.
          await expect(page).toHaveURL(/\?gesendet=\d+&pruefung=[\w.-]+#frage$/);
          const question = page.getByLabel(/^Wie viel ist /);
          await expect(question).toBeFocused();
          await expect(question).toBeInViewport();
          await expect(success.getByRole("link", { name: "Demo-Termin buchen" })).toBeVisible();
          await snap(page, testInfo, `thank-you-nojs-${viewport.name}`);
        }
      },
    );

    resultTest(
      "the error summary takes the viewport and the focus and links the fields",
      async ({ page, javaScriptEnabled }, testInfo) => {
        await open(page, javaScriptEnabled);
        await fillContact(page, `Emil ${unique()}`, `emil.${unique()}@example.com`, "Zu kurz");
        await page.getByRole("button", { name: "Anfrage senden" }).click();

        const summary = page.getByTestId("contact-error-summary");
        await expect(summary).toHaveAttribute("role", "alert");
        await expectOnScreen(summary, page);
        await expect(summary).toBeInViewport({ ratio: 1 });
        const link = summary.getByRole("link", {
          name: "Bitte beschreibe dein Unternehmen mit mindestens 20 Zeichen",
        });
        await expect(link).toHaveAttribute("href", "#contact-form-companyDescription");
        if (javaScriptEnabled) await expect(summary.getByRole("heading")).toBeFocused();
        await snap(
          page,
          testInfo,
          `error-summary-${javaScriptEnabled ? "js" : "nojs"}-${viewport.name}`,
        );
        await link.click();
        await expect(page.getByLabel("Beschreibe dein Unternehmen")).toBeFocused();
        await expect(page.getByLabel("Beschreibe dein Unternehmen")).toBeInViewport();
      },
    );

    resultTest(
      "a lost answer says so at the button, keeps everything, and the retry makes one request",
      {
        tag: "@js-only",
      },
      async ({ page, javaScriptEnabled }, testInfo) => {
        const name = `Nora ${unique()}`;
        const email = `nora.${unique()}@example.com`;
        await open(page, javaScriptEnabled);
        await fillContact(page, name, email);
        await page.getByLabel("Dateien anhängen (optional)").setInputFiles([pdf("grundriss.pdf")]);
        await page.getByRole("button", { name: "Sprachnachricht aufnehmen" }).click();
        await expect(page.getByTestId("recorder-timer")).toHaveText(/^[1-9]\d* s$/, {
          timeout: 10_000,
        });
        await page.getByRole("button", { name: "Aufnahme stoppen" }).click();
        await expect(page.getByRole("button", { name: "Abspielen" })).toBeVisible();

        const keys: (string | undefined)[] = [];
        page.on("request", (request: Request) => {
          if (request.method() === "POST" && new URL(request.url()).pathname === "/api/requests")
            keys.push(request.headers()["idempotency-key"]);
        });
        // The server gets the request and creates it; its answer never reaches the browser.
        await page.route("**/api/requests", async (route: Route) => {
          await route.fetch();
          await route.abort("connectionreset");
        });
        await page.getByRole("button", { name: "Anfrage senden" }).click();

        const problem = page.getByTestId("contact-submit-problem");
        await expect(problem).toHaveAttribute("role", "alert");
        await expect(problem).toContainText("Wir konnten unseren Server nicht erreichen.");
        await expect(problem).toContainText("Alles, was du eingegeben hast, ist noch da");
        await expect(problem).toBeFocused();
        await expect(problem).toBeInViewport({ ratio: 1 });
        await expect(page.getByRole("button", { name: "Anfrage senden" })).toBeInViewport();
        await expect(page.getByRole("button", { name: "Anfrage senden" })).toBeEnabled();
        await snap(page, testInfo, `network-failure-${viewport.name}`);
        // Everything given is still there.
        await expect(page.getByLabel("Name")).toHaveValue(name);
        await expect(page.getByLabel("Deine Projektidee (optional)")).toHaveValue(
          "Ein Aufmaß-Tool für die Baustelle.",
        );
        await expect(page.getByText("grundriss.pdf")).toBeVisible();
        await expect(page.getByRole("button", { name: "Abspielen" })).toBeVisible();
        expect(requestsOf(email)).toHaveLength(1);

        // The retry carries the same key: the server answers with the request it already has.
        await page.unroute("**/api/requests");
        await page.getByRole("button", { name: "Anfrage senden" }).click();
        const success = page.getByTestId("submission-success");
        await expect(success).toContainText(`Vielen Dank, ${name}!`);
        await expect(success.getByRole("heading")).toBeFocused();
        await expectOnScreen(success, page);
        expect(keys).toHaveLength(2);
        expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
        expect(keys[1]).toBe(keys[0]);
        const stored = requestsOf(email);
        expect(stored).toHaveLength(1);
        await expect(success).toContainText(`#${String(stored[0].id).padStart(4, "0")}`);
        expect(stored[0].attachments.map((a) => a.originalName)).toEqual(["grundriss.pdf"]);
        expect(stored[0].audioPath).toMatch(/\.webm$/);
        // The replayed answer brought the visitor's cookie: the request is in their history.
        await page.reload();
        await expect(
          page
            .locator("#history")
            .getByTestId("history-row")
            .filter({ hasText: `#${String(stored[0].id).padStart(4, "0")}` }),
        ).toHaveCount(1);
      },
    );
  });
}

resultTest(
  "no answer in time: the form says so and the retry sends the request once",
  {
    tag: "@js-only",
  },
  async ({ page, javaScriptEnabled }, testInfo) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.clock.install();
    const name = `Otto ${unique()}`;
    const email = `otto.${unique()}@example.com`;
    await open(page, javaScriptEnabled);
    await fillContact(page, name, email);
    await page.getByLabel("Dateien anhängen (optional)").setInputFiles([pdf("skizze.pdf")]);
    // The server creates the request, but its answer is held: the browser waits in vain.
    let reached!: () => void;
    const atServer = new Promise<void>((resolve) => {
      reached = resolve;
    });
    await page.route("**/api/requests", async (route: Route) => {
      await route.fetch();
      reached();
    });
    await page.getByRole("button", { name: "Anfrage senden" }).click();
    await atServer;
    await expect(page.getByRole("button", { name: "Wird gesendet …" })).toBeDisabled();
    await page.clock.fastForward(61_000);

    const problem = page.getByTestId("contact-submit-problem");
    await expect(problem).toContainText("Unser Server antwortet gerade nicht.");
    await expect(problem).toBeFocused();
    await expect(problem).toBeInViewport({ ratio: 1 });
    await expect(page.getByRole("button", { name: "Anfrage senden" })).toBeEnabled();
    await snap(page, testInfo, "timeout-phone");
    await expect(page.getByLabel("E-Mail")).toHaveValue(email);
    await expect(page.getByText("skizze.pdf")).toBeVisible();

    await page.unrouteAll({ behavior: "ignoreErrors" });
    await page.getByRole("button", { name: "Anfrage senden" }).click();
    await expect(page.getByTestId("submission-success")).toContainText(`Vielen Dank, ${name}!`);
    const stored = requestsOf(email);
    expect(stored).toHaveLength(1);
    expect(stored[0].attachments.map((a) => a.originalName)).toEqual(["skizze.pdf"]);
  },
);

resultTest(
  "a submit during a recording stops it and sends it",
  {
    tag: "@js-only",
  },
  async ({ page, javaScriptEnabled }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const name = `Rita ${unique()}`;
    const email = `rita.${unique()}@example.com`;
    await open(page, javaScriptEnabled);
    await fillContact(page, name, email);
    await page.getByRole("button", { name: "Sprachnachricht aufnehmen" }).click();
    await expect(page.getByText("Aufnahme läuft")).toBeVisible();
    await expect(page.getByTestId("recorder-timer")).toHaveText(/^[2-9] s$/, { timeout: 10_000 });
    // Still recording when the visitor presses send.
    await page.getByRole("button", { name: "Anfrage senden" }).click();
    await expect(page.getByTestId("submission-success")).toContainText(`Vielen Dank, ${name}!`);
    const stored = requestsOf(email);
    expect(stored).toHaveLength(1);
    expect(stored[0].audioPath).toMatch(/\.webm$/);
    const audio = await page.request.get(`/api/audio/${stored[0].audioPath}`);
    expect(audio.status()).toBe(200);
    expect((await audio.body()).length).toBeGreaterThan(1000);
  },
);

resultTest(
  "leaving with files or a recording not sent asks first",
  {
    tag: "@js-only",
  },
  async ({ page, javaScriptEnabled }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const dialogs: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.type());
      void dialog.dismiss();
    });
    await open(page, javaScriptEnabled);
    // Typed text alone does not ask (a gesture on the page, so the browser would allow the prompt).
    await page.getByLabel("Name").click();
    await page.getByLabel("Name").pressSequentially("Paul");
    await page.reload();
    expect(dialogs).toEqual([]);

    await waitForHydration(page);
    await page.getByLabel("Name").click();
    await page.getByLabel("Dateien anhängen (optional)").setInputFiles([pdf("plan.pdf")]);
    await expect(page.getByText("plan.pdf")).toBeVisible();
    // Dismissing the prompt keeps the visitor on the page, with the file.
    await page.close({ runBeforeUnload: true });
    await expect.poll(() => dialogs).toEqual(["beforeunload"]);
    expect(page.isClosed()).toBe(false);
    await expect(page.getByText("plan.pdf")).toBeVisible();

    // A recording asks too.
    await page.getByRole("button", { name: "plan.pdf entfernen" }).click();
    await page.getByRole("button", { name: "Sprachnachricht aufnehmen" }).click();
    await expect(page.getByTestId("recorder-timer")).toHaveText(/^[1-9]\d* s$/, {
      timeout: 10_000,
    });
    await page.getByRole("button", { name: "Aufnahme stoppen" }).click();
    await expect(page.getByRole("button", { name: "Abspielen" })).toBeVisible();
    await page.close({ runBeforeUnload: true });
    await expect.poll(() => dialogs).toEqual(["beforeunload", "beforeunload"]);
    expect(page.isClosed()).toBe(false);
  },
);

resultTest(
  "the booking dialog's answer is focused and on screen",
  {
    tag: "@js-only",
  },
  async ({ page, javaScriptEnabled }, testInfo) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const name = `Berta ${unique()}`;
    await open(page, javaScriptEnabled);
    await fillContact(page, name, `berta.${unique()}@example.com`);
    await page.getByRole("button", { name: "Anfrage senden" }).click();
    const success = page.getByTestId("submission-success");
    await success.getByRole("button", { name: "Demo-Termin buchen" }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog).toContainText(`Für: ${name}`);
    await dialog.getByRole("button", { name: "Nächster Monat" }).click();
    await dialog.locator("button[aria-pressed]:not([disabled])").first().click();
    const times = dialog.locator(".grid-cols-3 button");
    await expect(times.first()).toBeVisible();

    // A slot taken meanwhile: the error is on screen and focused.
    await page.route("**/api/calcom/book-appointment", (route) =>
      route.fulfill({
        status: 409,
        json: { success: false, error: "Dieser Termin ist leider schon vergeben." },
      }),
    );
    await times.nth(3).click();
    // The confirm button below the times comes into view; the chosen time keeps the focus.
    await expect(dialog.getByRole("button", { name: "Termin verbindlich buchen" })).toBeInViewport({
      ratio: 1,
    });
    await expect(times.nth(3)).toBeFocused();
    await snap(page, testInfo, "booking-time-picked-phone");
    await dialog.getByRole("button", { name: "Termin verbindlich buchen" }).click();
    const error = dialog.getByRole("alert");
    await expect(error).toHaveText("Dieser Termin ist leider schon vergeben.");
    await expect(error).toBeInViewport({ ratio: 1 });
    await expect(dialog.locator("[data-reveal]", { has: page.getByRole("alert") })).toBeFocused();
    await snap(page, testInfo, "booking-error-phone");

    await page.unroute("**/api/calcom/book-appointment");
    await times.nth(4).click();
    await dialog.getByRole("button", { name: "Termin verbindlich buchen" }).click();
    const result = dialog.getByTestId("booking-result");
    await expect(result).toContainText("Termin erfolgreich gebucht!");
    await expect(result).toBeFocused();
    await expect(result.getByRole("status")).toBeInViewport({ ratio: 1 });
    await snap(page, testInfo, "booking-success-phone");
    // The dialog closes by itself; the booked date takes the focus it hands back.
    await expect(dialog).toHaveCount(0, { timeout: 5000 });
    const booked = success.getByTestId("booked-demo");
    await expectOnScreen(booked, page);
    await expect(
      success.locator("[data-reveal]", { has: page.getByTestId("booked-demo") }),
    ).toBeFocused();
    // With SMTP the confirmation mail goes out: no note that it cannot.
    await expect(success.getByTestId("booked-no-mail")).toHaveCount(0);
    await snap(page, testInfo, "booked-phone");
  },
);

resultTest(
  "without SMTP the card left after the dialog says no mail will come and how to cancel",
  {
    tag: "@js-only",
  },
  async ({ page, javaScriptEnabled, plainApp }, testInfo) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const name = `Greta ${unique()}`;
    await page.goto(`${plainApp.url}/`);
    // This server has no analytics: no cookie bar, nothing needs consent (ADR 343).
    await expect(page.getByRole("button", { name: "Alle akzeptieren" })).toHaveCount(0);
    if (javaScriptEnabled) await waitForHydration(page);
    await fillContact(page, name, `greta.${unique()}@example.com`);
    await page.getByRole("button", { name: "Anfrage senden" }).click();
    const success = page.getByTestId("submission-success");
    await success.getByRole("button", { name: "Demo-Termin buchen" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: "Nächster Monat" }).click();
    await dialog.locator("button[aria-pressed]:not([disabled])").first().click();
    const times = dialog.locator(".grid-cols-3 button");
    await times.first().click();
    const confirm = dialog.getByRole("button", { name: "Termin verbindlich buchen" });
    await expect(confirm).toBeInViewport({ ratio: 1 });
    await confirm.click();
    await expect(dialog.getByTestId("booking-result")).toContainText(
      "Eine Bestätigung per E-Mail können wir gerade nicht senden.",
    );
    await expect(dialog.getByTestId("booking-result")).not.toContainText(
      "Du erhältst eine Bestätigungs-E-Mail",
    );
    // The dialog closes by itself: the card left behind repeats it, with the date.
    await expect(dialog).toHaveCount(0, { timeout: 5000 });
    const booked = success.getByTestId("booked-demo");
    await expectOnScreen(booked, page);
    await expect(booked).toContainText("Dein Demo-Termin:");
    const note = success.getByTestId("booked-no-mail");
    await expect(note).toContainText(
      "Eine Bestätigung per E-Mail können wir gerade nicht senden – notier dir den Termin.",
    );
    await expect(note).toContainText("Zieh sie unter „Meine Anfragen“ zurück.");
    await expect(note).toBeInViewport({ ratio: 1 });
    await snap(page, testInfo, "booked-without-mail-phone");
    // "Meine Anfragen" shows the request with its demo and the way to withdraw it.
    await note.getByRole("link", { name: "„Meine Anfragen“" }).click();
    const card = page.locator("#history").getByTestId("history-card").first();
    await expect(card.getByTestId("booked-demo")).toBeVisible();
    const results = await axeOn(page).include("#contact").analyze();
    expect(results.violations.map((v) => `${v.id} ${v.nodes[0]?.target}`)).toEqual([]);
    // The booking page of the booked request promises no mail either.
    const number = (await note.textContent())?.match(/#(\d+)/)?.[1];
    expect(number).toBeTruthy();
    await page.goto(`${plainApp.url}/termin?anfrage=${Number(number)}`);
    const already = page.getByText("Für diese Anfrage ist bereits ein Demo-Termin gebucht.");
    await expect(already).toContainText(
      "Eine Bestätigung per E-Mail können wir gerade nicht senden – die Details findest du hier",
    );
    await expect(already).not.toContainText("Bestätigungs-E-Mail");
    await expect(already).toBeInViewport();
  },
);

resultTest(
  "the failure, the thank-you and the error summary have no axe violations (light and dark)",
  {
    tag: "@js-only",
  },
  async ({ page, javaScriptEnabled }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 390, height: 844 });
    const axe = async (label: string) => {
      const results = await axeOn(page).include("#contact").analyze();
      expect(results.violations.map((v) => `${label}: ${v.id} ${v.nodes[0]?.target}`)).toEqual([]);
    };
    for (const theme of ["light", "dark"] as const) {
      if (theme === "light") await open(page, javaScriptEnabled);
      else {
        await switchToDarkTheme(page);
        await expect(page.locator("html")).toHaveClass(/dark/);
      }
      await fillContact(page, `Axel ${unique()}`, `axel.${unique()}@example.com`);
      await page.route("**/api/requests", (route) => route.abort("connectionreset"));
      await page.getByRole("button", { name: "Anfrage senden" }).click();
      await expect(page.getByTestId("contact-submit-problem")).toBeFocused();
      await axe(`${theme} failure`);
      await page.unroute("**/api/requests");
      await page.getByRole("button", { name: "Anfrage senden" }).click();
      await expect(page.getByTestId("submission-success").getByRole("heading")).toBeFocused();
      await axe(`${theme} thank-you`);
      await page.getByRole("button", { name: "Weitere Anfrage senden" }).click();
      await fillContact(page, `Axel ${unique()}`, `axel.${unique()}@example.com`, "Zu kurz");
      await page.getByRole("button", { name: "Anfrage senden" }).click();
      await expect(page.getByTestId("contact-error-summary").getByRole("heading")).toBeFocused();
      await axe(`${theme} summary`);
    }
  },
);
