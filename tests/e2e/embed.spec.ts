import { createServer, type Server } from "node:http";
import type { Frame, Page } from "@playwright/test";
import { embedSnippet } from "~/lib/embed";
import { solvedAltcha } from "../altcha-solution";
import { axeOn } from "./axe";
import { expect, test } from "./fixtures";
import { waitForHydration } from "./hydration";
import { portsFor } from "./ports";
import { findRequestByEmail, isQuarantined } from "./seed";

// The embeddable form (ADR 283): the agency's own website — another site on another
// loopback origin (http://127.0.0.1:<port>) — frames http://localhost:<app>/embed with the snippet
// of the settings page. A visitor submits inside the frame with JS on and off (the JS-off project
// disables JS in the frame too); no cookie is set; the request arrives with the embedding page as
// referrer; booking opens in the whole window through the request's signed link; the frame
// resizes (JS). axe on /embed light and dark and on the settings card.

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
// The agency's page is served once per worker for the whole file (beforeAll): its tests stay
// together in one worker instead of being spread over both (playwright.config.ts fullyParallel).
test.describe.configure({ mode: "default", timeout: 120_000 });

let host: Server;
let hostOrigin = "";

// biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixture's dependencies from this pattern.
test.beforeAll(async ({}, workerInfo) => {
  const ports = portsFor(workerInfo.workerIndex);
  const appUrl = `http://localhost:${ports.app}`;
  const snippet = embedSnippet(appUrl);
  host = createServer((req, res) => {
    // /ohne-mikrofon: the frame without allow="microphone" (the recorder explains and offers a file).
    const iframe = req.url?.startsWith("/ohne-mikrofon")
      ? snippet.iframe.replace(' allow="microphone"', "")
      : snippet.iframe;
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(`<!doctype html><html lang="de"><head><meta charset="utf-8"><title>Agentur Beispiel</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="margin:0;font-family:sans-serif"><main><h1 style="padding:0 16px">Agentur Beispiel – Kontakt</h1>
${iframe}
<p style="padding:0 16px" id="after">Unter dem Formular geht die Seite weiter.</p></main>
${snippet.script}</body></html>`);
  });
  const port = ports.embedHost;
  await new Promise<void>((resolve) => host.listen(port, "127.0.0.1", resolve));
  hostOrigin = `http://127.0.0.1:${port}`;
});
test.afterAll(async () => {
  await new Promise<void>((resolve) => host.close(() => resolve()));
});

/** The framed form's Frame, once it is loaded (with JS: the copy embed.js made with the page's address). */
async function embedFrame(page: Page, javaScriptEnabled: boolean): Promise<Frame> {
  let frame: Frame | undefined;
  await expect
    .poll(
      () => {
        frame = page
          .frames()
          .find(
            (f) =>
              f.url().startsWith(`${new URL(page.url()).origin}/`) === false &&
              /\/embed(\?|$)/.test(f.url()),
          );
        return frame ? new URL(frame.url()).searchParams.has("ref") : null;
        // embed.js replaces the snippet's frame with a copy at the address with `ref`.
      },
      { timeout: 20_000 },
    )
    .toBe(javaScriptEnabled);
  const found = frame as Frame;
  await expect(found.getByLabel("Name")).toBeVisible();
  if (javaScriptEnabled)
    await found.locator("section[data-hydrated]").waitFor({ state: "attached" });
  return found;
}

for (const viewport of [PHONE, DESKTOP]) {
  test(`a visitor sends the form framed on the agency's website (${viewport.width} px)`, async ({
    page,
    seed,
    javaScriptEnabled,
    baseURL,
  }, testInfo) => {
    seed.configuration({ embed: { allowedOrigins: [hostOrigin] } });
    await page.setViewportSize(viewport);
    const tag = Math.random().toString(36).slice(2, 8);
    const email = `rahmen-${tag}@example.com`;
    await page.goto(`${hostOrigin}/kontakt?utm_source=website&utm_campaign=herbst`);
    const frame = await embedFrame(page, javaScriptEnabled);
    // The form alone: no cookie bar, no site header.
    await expect(frame.getByRole("heading", { name: "Erzähl uns von deiner Idee" })).toBeVisible();
    await expect(frame.getByRole("region", { name: "Cookie-Einstellungen" })).toHaveCount(0);
    await expect(frame.getByRole("banner")).toHaveCount(0);

    await frame.getByLabel("Name").fill(`Rahmen ${tag}`);
    await frame.getByLabel("E-Mail").fill(email);
    await frame.getByLabel("Telefon").fill("+49 30 555 1234");
    await frame.getByLabel("Beschreibe dein Unternehmen").fill("Eine Tischlerei in Leipzig");
    await frame.getByLabel("Deine Projektidee (optional)").fill("Ein Konfigurator für Möbel.");
    if (!javaScriptEnabled) {
      // Without JS the proof of work is missing (quarantine): add what a JS browser sends.
      const payload = await solvedAltcha(baseURL as string);
      await frame.locator("#contact-form").evaluate((form, value) => {
        const field = document.createElement("input");
        field.type = "hidden";
        field.name = "altcha";
        field.value = value;
        form.append(field);
      }, payload);
    }
    await page.screenshot({ path: testInfo.outputPath(`embed-filled-${viewport.width}.png`) });
    await frame.getByRole("button", { name: "Anfrage senden" }).click();
    const success = frame.getByTestId("submission-success");
    await expect(success).toContainText(`Vielen Dank, Rahmen ${tag}!`);
    await expect(success).toHaveAttribute("role", "status");
    if (javaScriptEnabled) await expect(success.getByRole("heading")).toBeFocused();
    await success.scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath(`embed-sent-${viewport.width}.png`) });

    // Arrived, not held back, with the embedding page as its referrer (its address passed by
    // embed.js with JS; the frame's Referer, the origin, without).
    const created = findRequestByEmail(email);
    expect(created).toBeTruthy();
    expect(isQuarantined(created?.id as number)).toBe(false);
    expect(created?.attribution.referrer).toBe(
      javaScriptEnabled ? `${hostOrigin}/kontakt` : hostOrigin,
    );
    if (javaScriptEnabled) expect(created?.attribution.source).toBe("website");
    // The frame set no cookie (none would reach it in a cross-site frame anyway).
    expect(await page.context().cookies(baseURL as string)).toEqual([]);

    // Booking opens in the whole window, authorised by the request's signed link.
    const book = success.getByRole("link", { name: "Demo-Termin buchen" });
    await expect(book).toHaveAttribute("target", "_top");
    await book.click();
    await expect(page).toHaveURL(`${baseURL}/termin?anfrage=${created?.id}`);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  });
}

test("the frame takes the height of its content @js-only", async ({ page, seed }, testInfo) => {
  seed.configuration({ embed: { allowedOrigins: [hostOrigin] } });
  await page.setViewportSize(PHONE);
  await page.goto(`${hostOrigin}/kontakt`);
  const frame = await embedFrame(page, true);
  const iframe = page.locator("iframe[data-anfrage-portal]");
  const content = () =>
    frame.locator("main").evaluate((main) => Math.ceil(main.getBoundingClientRect().height));
  const framed = () => iframe.evaluate((el) => Math.round(el.getBoundingClientRect().height));
  // The snippet starts at 900 px; the message from the frame sets the content's height.
  await expect.poll(async () => (await framed()) - (await content())).toBe(0);
  expect(await framed()).not.toBe(900);
  // A change of the content's height (wider: name and e-mail side by side) resizes it again.
  const before = await framed();
  await page.setViewportSize(DESKTOP);
  await expect.poll(framed).not.toBe(before);
  await expect.poll(async () => (await framed()) - (await content())).toBe(0);
  await page.screenshot({ path: testInfo.outputPath("embed-resized-390.png"), fullPage: true });
});

test("without allow=microphone the frame offers an audio file and says why @js-only", async ({
  page,
  seed,
}) => {
  seed.configuration({ embed: { allowedOrigins: [hostOrigin] } });
  await page.goto(`${hostOrigin}/ohne-mikrofon`);
  const frame = await embedFrame(page, true);
  const audio = frame.getByLabel("Sprachnachricht (optional)");
  await expect(audio).toHaveAttribute("type", "file");
  await expect(audio).toHaveAccessibleDescription(
    /^Aufnehmen geht hier nicht: Diese Seite hat dem eingebetteten Formular das Mikrofon nicht freigegeben\./,
  );
  await expect(frame.getByRole("button", { name: "Sprachnachricht aufnehmen" })).toHaveCount(0);
  // With the microphone allowed (a fresh page, not a second load of the same one), the recorder's
  // button is there.
  const other = await page.context().newPage();
  await other.goto(`${hostOrigin}/kontakt`);
  const allowed = await embedFrame(other, true);
  await expect(allowed.getByRole("button", { name: "Sprachnachricht aufnehmen" })).toBeVisible();
});

for (const theme of ["light", "dark"] as const) {
  test(`/embed has no axe violations (${theme}) @js-only`, async ({ page }, testInfo) => {
    await page.setViewportSize(PHONE);
    await page.emulateMedia({ colorScheme: theme });
    await page.goto("/embed");
    await waitForHydration(page);
    const results = await axeOn(page).analyze();
    expect(results.violations.map((v) => `${v.id} ${v.nodes[0]?.target}`)).toEqual([]);
    await page.screenshot({ path: testInfo.outputPath(`embed-${theme}-390.png`), fullPage: true });
  });
}

test("settings: allow a website, get the snippet; a bad address is refused at its row", async ({
  page,
  openSettings,
  seed,
  javaScriptEnabled,
}, testInfo) => {
  seed.configuration({ embed: { allowedOrigins: [] } });
  await openSettings(page, { viewport: PHONE });
  const section = page.locator("#embed");
  await expect(
    section.getByRole("heading", { name: "Einbettung auf der eigenen Website" }),
  ).toBeVisible();
  await expect(section.getByTestId("embed-snippet-iframe")).toContainText('allow="microphone"');
  await expect(section.getByTestId("embed-snippet-csp")).toContainText("frame-src");
  // No website saved yet: the snippet says it works only once one is.
  const notYet = section.getByText("Noch ist keine Website gespeichert", { exact: false });
  await expect(notYet).toBeVisible();

  const add = section.getByRole("button", { name: "Website hinzufügen" });
  await add.click();
  const first = section.getByRole("textbox", { name: "Erlaubte Website 1" });
  await expect(first).toBeFocused();
  await first.fill("https://www.agentur.example/kontakt");
  await page.getByRole("button", { name: "Konfiguration speichern" }).click();
  await expect(first).toHaveAttribute("aria-invalid", "true");
  await expect(first).toHaveAccessibleDescription(/ohne Pfad/);
  await expect(first).toBeFocused();
  await expect(first).toBeInViewport();

  await first.fill("https://www.agentur.example/");
  if (javaScriptEnabled) {
    const results = await axeOn(page).include("#embed").analyze();
    expect(results.violations.map((v) => `${v.id} ${v.nodes[0]?.target}`)).toEqual([]);
  }
  await page.getByRole("button", { name: "Konfiguration speichern" }).click();
  await expect(page.getByText("Konfiguration erfolgreich gespeichert!")).toBeVisible({
    timeout: 30_000,
  });
  await page.reload();
  if (javaScriptEnabled) await waitForHydration(page);
  await expect(section.getByRole("textbox", { name: "Erlaubte Website 1" })).toHaveValue(
    "https://www.agentur.example",
  );
  await expect(notYet).toHaveCount(0);
  await section.scrollIntoViewIfNeeded();
  await section.screenshot({ path: testInfo.outputPath("settings-embed-390.png") });
});
