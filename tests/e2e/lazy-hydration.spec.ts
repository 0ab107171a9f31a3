import type { Page, Route } from "@playwright/test";
import { webmFile } from "./files";
import { expect, test } from "./fixtures";
import { holdScripts, isAppScript, waitForHydration } from "./hydration";
import { findRequestByEmail, isQuarantined } from "./seed";

// The landing page loads its JavaScript on the visitor's first interaction (ADR 170). Only the
// js-on project can tell: without JS these are the no-JS flows landing.spec.ts already covers.

const unique = () => Math.random().toString(36).slice(2, 8);
const webm = webmFile("sprachmemo.webm");
async function fillContact(page: Page, name: string, email: string) {
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("E-Mail").fill(email);
  await page.getByLabel("Telefon").fill("+49 40 7654321");
  await page.getByLabel("Beschreibe dein Unternehmen").fill("Eine Bäckerei mit drei Filialen.");
  await page.getByLabel("Deine Projektidee (optional)").fill("Vorbestellungen per App.");
}

/**
 * The landing page with its JavaScript held back, the cookie choice made (natively) and the contact
 * form filled: the state every race below starts from.
 */
async function unhydratedWithContact(page: Page, name: string, email: string) {
  const scripts = await holdScripts(page);
  await page.goto("/");
  await page.getByRole("button", { name: "Nur notwendige" }).click();
  await expect(page.getByRole("button", { name: "Alle akzeptieren" })).toHaveCount(0);
  await fillContact(page, name, email);
  return scripts;
}

test("no app JavaScript is requested before the first interaction @js-only", async ({ page }) => {
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (isAppScript(request.url())) scripts.push(new URL(request.url()).pathname);
  });
  await page.goto("/");
  await page.waitForLoadState("networkidle");
  expect(scripts).toEqual([]);
  await expect(page.locator("script[data-lazy-hydration]")).toHaveCount(1);
  await expect(page.locator('link[rel="modulepreload"]')).toHaveCount(0);
  await expect(page.locator("section[data-hydrated]")).toHaveCount(0);

  // The first interaction (a mouse movement) loads it and the page hydrates (without a mismatch:
  // the fixture fails the test on any console error).
  const entry = page.waitForRequest((request) => /entry\.client/.test(request.url()));
  await page.mouse.move(10, 10);
  await page.mouse.move(20, 20);
  await entry;
  await page.locator("section[data-hydrated]").waitFor({ state: "attached" });
  expect(scripts.length).toBeGreaterThan(1);
});

test("injected markup posing as the lazy module never runs: only the one with the loader's nonce does @js-only", async ({
  page,
}) => {
  await page.goto("/");
  // Markup that reached the page (e.g. through an HTML injection) before the real module script:
  // it carries no nonce, so the loader must not run it with its own.
  await page.evaluate(() => {
    const fake = document.createElement("script");
    fake.type = "text/x-lazy-module";
    fake.textContent = "window.__injected = true";
    document.body.prepend(fake);
  });
  const entry = page.waitForRequest((request) => /entry\.client/.test(request.url()));
  await page.mouse.move(10, 10);
  await page.mouse.move(20, 20);
  await entry;
  await page.locator("section[data-hydrated]").waitFor({ state: "attached" });
  expect(
    await page.evaluate(() => (window as { __injected?: boolean }).__injected),
  ).toBeUndefined();
});

test("the admin login loads its JavaScript right after the first paint, without an interaction @js-only", async ({
  page,
}) => {
  await page.goto("/admin/login");
  await page.locator("section[data-hydrated]").waitFor({ state: "attached" });
  const timing = await page.evaluate(() => ({
    paint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime,
    scripts: performance
      .getEntriesByType("resource")
      .filter((e) => /\/assets\/[^/]+\.js$/.test(new URL(e.name).pathname))
      .map((e) => e.startTime),
  }));
  expect(timing.scripts.length).toBeGreaterThan(1);
  expect(timing.paint).toBeDefined();
  expect(Math.min(...timing.scripts)).toBeGreaterThanOrEqual(timing.paint as number);
});

test("a click before hydration takes the no-JS path: cookie choice and contact form post natively @js-only", async ({
  page,
}) => {
  const scripts = await holdScripts(page);
  await page.goto("/");

  // The cookie bar's button posts its form and the server redirects back (with JS: a fetch).
  const consentPost = page.waitForRequest(
    (r) =>
      r.method() === "POST" && r.isNavigationRequest() && r.url().endsWith("/preferences/consent"),
  );
  await page.getByRole("button", { name: "Nur notwendige" }).click();
  await consentPost;
  await expect(page.getByRole("button", { name: "Alle akzeptieren" })).toHaveCount(0);

  // The contact form posts to the page's action; the server redirects to ?gesendet=<id>…#contact
  // (the JS form stays on / and posts to /api/requests).
  const name = `Vorab ${unique()}`;
  const email = `vorab.${unique()}@example.com`;
  await fillContact(page, name, email);
  expect(scripts.held()).toBeGreaterThan(0); // typing was an interaction: the loading started
  const formPost = page.waitForRequest(
    (r) => r.method() === "POST" && r.isNavigationRequest() && new URL(r.url()).pathname === "/",
  );
  await page.getByRole("button", { name: "Anfrage senden" }).click();
  await formPost;
  await expect(page).toHaveURL(/\/\?gesendet=\d+&pruefung=[\w.-]+#frage$/);
  await expect(page.getByTestId("submission-success")).toContainText(`Vielen Dank, ${name}!`);
  const stored = findRequestByEmail(email);
  expect(stored?.name).toBe(name);
  // Posted before the proof of work could run: kept in the spam quarantine (ADR 250) until the
  // visitor answers the thank-you page's question (ADR 326, tests/e2e/script-free-challenge.spec.ts).
  expect(isQuarantined(stored?.id as number)).toBe(true);
  await expect(page.locator("section[data-hydrated]")).toHaveCount(0);
  await scripts.release();
});

test("what the visitor typed and picked before hydration stays and counts @js-only", async ({
  page,
}) => {
  const name = `Früh ${unique()}`;
  const email = `frueh.${unique()}@example.com`;
  const scripts = await unhydratedWithContact(page, name, email);
  await page.getByLabel("Dateien anhängen (optional)").setInputFiles({
    name: "skizze.pdf",
    mimeType: "application/pdf",
    buffer: Buffer.from(`%PDF-1.4\n1 0 obj\n<<>>\nendobj\n${"x".repeat(500)}\n%%EOF\n`),
  });
  // Without JS the voice message is an audio file input.
  await page.getByLabel("Sprachnachricht (optional)").setInputFiles(webm);
  await expect(page.locator("section[data-hydrated]")).toHaveCount(0);
  // Watch the submit through hydration: with every field filled it must never turn disabled, not
  // even for one frame (a click in that frame would be lost).
  await page.evaluate(() => {
    const seen = window as unknown as { submitDisabledSeen?: boolean };
    seen.submitDisabledSeen = false;
    new MutationObserver(() => {
      for (const button of document.querySelectorAll("#contact form button[type=submit]")) {
        if ((button as HTMLButtonElement).disabled) seen.submitDisabledSeen = true;
      }
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  });

  await scripts.release();
  await waitForHydration(page);
  await expect(page.getByTestId("company-counter")).toHaveText("32/20 Zeichen (mindestens)");
  expect(
    await page.evaluate(
      () => (window as unknown as { submitDisabledSeen?: boolean }).submitDisabledSeen,
    ),
  ).toBe(false);
  await expect(page.getByLabel("Name")).toHaveValue(name);
  await expect(page.getByLabel("E-Mail")).toHaveValue(email);
  await expect(page.getByLabel("Beschreibe dein Unternehmen")).toHaveValue(
    "Eine Bäckerei mit drei Filialen.",
  );
  await expect(page.getByLabel("Deine Projektidee (optional)")).toHaveValue(
    "Vorbestellungen per App.",
  );
  // The JS form knows the typed text: the counter counts it and nothing blocks the submit.
  await expect(page.getByTestId("company-counter")).toHaveText("32/20 Zeichen (mindestens)");
  await expect(page.getByTestId("contact-submit-hint")).toHaveCount(0);
  await expect(page.getByText("skizze.pdf")).toBeVisible();
  // The picked audio file keeps its input (instead of the recorder's button) and is sent.
  await expect(page.getByLabel("Sprachnachricht (optional)")).toHaveValue(/sprachmemo\.webm$/);

  // Sent by the JS form (no page load: the URL stays), with the file picked before hydration.
  await page.getByRole("button", { name: "Anfrage senden" }).click();
  await expect(page.getByTestId("submission-success")).toContainText(`Vielen Dank, ${name}!`);
  expect(new URL(page.url()).search).toBe("");
  const row = findRequestByEmail(email);
  expect(row?.attachments.map((f) => f.originalName)).toEqual(["skizze.pdf"]);
  expect(row?.audioPath).toMatch(/\.webm$/);
});

test("an audio file picked in a file dialog opened before hydration is sent, and the input keeps the focus @js-only", async ({
  page,
}) => {
  const name = `Wahl ${unique()}`;
  const email = `wahl.${unique()}@example.com`;
  const scripts = await unhydratedWithContact(page, name, email);
  // The visitor opens the file dialog before the page hydrated and picks the file only after it.
  const chooser = page.waitForEvent("filechooser");
  await page.getByLabel("Sprachnachricht (optional)").click();
  const dialog = await chooser;
  await scripts.release();
  await waitForHydration(page);
  // The contact form hydrated too: its JS upload widget is there.
  await expect(page.getByRole("button", { name: "Dateien anhängen (optional)" })).toBeVisible();
  expect(await page.evaluate(() => document.activeElement?.id)).toBe("contact-audio");
  await dialog.setFiles(webm);
  await page.getByRole("button", { name: "Anfrage senden" }).click();
  await expect(page.getByTestId("submission-success")).toContainText(`Vielen Dank, ${name}!`);
  expect(findRequestByEmail(email)?.audioPath).toMatch(/\.webm$/);
});

test("a native submission still on its way when the page hydrates is not sent a second time by JS @js-only", async ({
  page,
}) => {
  const scripts = await unhydratedWithContact(
    page,
    `Doppel ${unique()}`,
    `doppel.${unique()}@example.com`,
  );
  // The native POST is held; the page hydrates meanwhile. (A 204 answer then ends the navigation
  // without leaving the page, so the hydrated form can be inspected.)
  let heldPost: Route | undefined;
  const posted = new Promise<void>((resolve) => {
    void page.route(
      (url) => url.pathname === "/",
      (route) => {
        if (route.request().method() !== "POST") return route.continue();
        heldPost = route;
        resolve();
      },
    );
  });
  const entry = page.waitForResponse((response) => /entry\.client/.test(response.url()));
  await page.getByRole("button", { name: "Anfrage senden" }).click({ noWaitAfter: true });
  await posted;
  await scripts.release();
  await entry;
  await heldPost?.fulfill({ status: 204 });
  await waitForHydration(page);
  // The form knows it was sent: no second submission by JS.
  await expect(page.getByRole("button", { name: "Wird gesendet …" })).toBeDisabled();
});

test("the booking link focused before hydration hands its focus to the button replacing it @js-only", async ({
  page,
}) => {
  const scripts = await unhydratedWithContact(
    page,
    `Buch ${unique()}`,
    `buch.${unique()}@example.com`,
  );
  await page.getByRole("button", { name: "Anfrage senden" }).click();
  await expect(page).toHaveURL(/gesendet=/);
  // The URL changes when the answer's document commits; focus only once it has loaded, or the
  // rest of the load can take the focus again before the scripts are released. An interaction
  // before the load event (on a slow machine the jump to "#contact" or the pointer resting on the
  // new page) makes the loader add the app's module script, whose imports are held here, and the
  // load event waits for them: then the app's own scripts are all that is left to load.
  await expect
    .poll(() =>
      page.evaluate(
        () =>
          document.readyState === "complete" ||
          document.querySelector('script[type="module"]') !== null,
      ),
    )
    .toBe(true);
  const link = page.getByRole("link", { name: "Demo-Termin buchen" }).first();
  await link.focus();
  await expect(link).toBeFocused();
  await scripts.release();
  await waitForHydration(page);
  await expect(page.getByRole("button", { name: "Demo-Termin buchen" }).first()).toBeFocused();
});

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test(`hydration at ${viewport.width} px keeps the voice field's height: the fields below it stay in place @js-only`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await page.goto("/");
    const voice = page.locator("#contact-form div:has(> #voice-label)");
    // Measured in the document (scroll offset added), before and after the first interaction.
    const attachmentsTop = () =>
      page
        .locator("#contact-attachments")
        .evaluate((el) => Math.round(el.getBoundingClientRect().top + window.scrollY));
    const heightBefore = (await voice.boundingBox())?.height;
    const attachmentsBefore = await attachmentsTop();
    await waitForHydration(page);
    await expect(page.getByRole("button", { name: "Sprachnachricht aufnehmen" })).toBeVisible();
    expect((await voice.boundingBox())?.height).toBe(heightBefore);
    expect(await attachmentsTop()).toBe(attachmentsBefore);
  });
}
