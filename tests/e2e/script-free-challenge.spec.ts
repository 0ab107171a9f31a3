// A visitor without JavaScript is not held for being without JavaScript (ADR 326): the
// thank-you page asks one question in words; the right answer takes the normal flow (the receipt
// arrives), wrong answers leave the request for a human — at 390×844 and 1280×800, on the landing
// page and in the framed form, and for a click that posted before the page hydrated.

import type { Page, Route } from "@playwright/test";
import { axeOn } from "./axe";
import { expect, test, waitForMail } from "./fixtures";
import { waitForHydration } from "./hydration";
import { answerQuestion } from "./mail-kinds";
import { findRequestByEmail, isQuarantined } from "./seed";
import { switchToDarkTheme } from "./theme";

const VIEWPORTS = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 800 },
] as const;

const unique = () => Math.random().toString(36).slice(2, 8);

async function fillContact(page: Page, name: string, email: string) {
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("E-Mail").fill(email);
  await page.getByLabel("Telefon").fill("+49 30 555 7788");
  await page.getByLabel("Beschreibe dein Unternehmen").fill("Ein Blumenladen mit zwei Filialen.");
}

/** The form sent without JavaScript: the thanks, and below it the question with its field focused. */
async function sendWithoutScript(page: Page, path = "/") {
  const name = `Ohne Skript ${unique()}`;
  const email = `ohne.skript.${unique()}@example.com`;
  await page.goto(path);
  const cookies = page.getByRole("button", { name: "Nur notwendige" });
  if (await cookies.isVisible()) await cookies.click();
  await fillContact(page, name, email);
  await page.getByRole("button", { name: "Anfrage senden" }).click();
  await expect(page.getByTestId("submission-success")).toContainText(`Vielen Dank, ${name}!`);
  return { name, email };
}

async function expectQuestion(page: Page) {
  const check = page.getByTestId("script-free-check");
  await expect(check.getByRole("heading", { name: "Eine kurze Frage noch" })).toBeVisible();
  const answer = page.getByLabel(/^Wie viel ist \S+ (plus|minus) \S+\?$/);
  await expect(answer).toBeFocused();
  await expect(answer).toBeInViewport();
  await expect(answer).toHaveAccessibleDescription(/Als Zahl oder Wort, z\. B\. 12 oder zwölf\.$/);
  return answer;
}

for (const viewport of VIEWPORTS) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test("the right answer takes the request into the normal flow: the receipt arrives @no-js-only", async ({
      page,
    }, testInfo) => {
      const { email } = await sendWithoutScript(page);
      expect(isQuarantined(findRequestByEmail(email)?.id as number)).toBe(true);
      // The thanks stays in view above the question.
      await expect(
        page.getByTestId("submission-success").getByRole("heading", { level: 3 }),
      ).toBeInViewport();
      await expectQuestion(page);
      await page.screenshot({ path: testInfo.outputPath(`question-${viewport.name}.png`) });
      await answerQuestion(page);
      await expect(page.getByTestId("script-free-outcome")).toBeInViewport();
      expect(isQuarantined(findRequestByEmail(email)?.id as number)).toBe(false);
      const receipt = await waitForMail(email, /^Deine Anfrage ist bei uns eingegangen$/);
      expect(receipt.text).toContain("Hallo Ohne,");
      await page.screenshot({ path: testInfo.outputPath(`answered-${viewport.name}.png`) });
    });

    test("wrong answers get new questions, the third leaves it for a human @no-js-only", async ({
      page,
    }, testInfo) => {
      const { email } = await sendWithoutScript(page);
      for (const left of ["noch 2 Versuche", "noch ein Versuch"]) {
        const answer = await expectQuestion(page);
        await answer.fill("99");
        await page.getByRole("button", { name: "Antwort senden" }).click();
        const wrong = page.getByRole("alert").filter({ hasText: "Das war leider nicht richtig." });
        await expect(wrong).toContainText(left);
        await expect(wrong).toBeInViewport();
        // Read with the new question's field, which takes the focus.
        await expect(page.getByLabel(/^Wie viel ist /)).toHaveAccessibleDescription(
          new RegExp(`^Das war leider nicht richtig\\. Hier ist eine neue Frage \\(${left}\\)\\.`),
        );
      }
      await page.screenshot({ path: testInfo.outputPath(`wrong-${viewport.name}.png`) });
      const answer = await expectQuestion(page);
      await answer.fill("99");
      await page.getByRole("button", { name: "Antwort senden" }).click();
      const outcome = page.getByTestId("script-free-outcome");
      await expect(outcome).toHaveText(
        "Deine Anfrage ist gespeichert. Wir sehen sie uns von Hand an und melden uns bei dir – das kann etwas dauern.",
      );
      await expect(outcome).toBeInViewport();
      await expect(page.getByLabel(/^Wie viel ist/)).toHaveCount(0);
      expect(isQuarantined(findRequestByEmail(email)?.id as number)).toBe(true);
    });
  });
}

test("the framed form asks the same question in the frame's page @no-js-only", async ({ page }) => {
  const { email } = await sendWithoutScript(page, "/embed");
  await expect(page).toHaveURL(/\/embed\?gesendet=[\w.-]+&pruefung=/);
  await expectQuestion(page);
  await answerQuestion(page);
  await expect(page).toHaveURL(/\/embed\?/);
  expect(isQuarantined(findRequestByEmail(email)?.id as number)).toBe(false);
  await waitForMail(email, /^Deine Anfrage ist bei uns eingegangen$/);
});

/** Holds the app's JavaScript until `release()`: a click then posts the form natively. */
async function holdScripts(page: Page) {
  const held: Route[] = [];
  let released = false;
  await page.route(
    (url) => /\/assets\/[^/?]+\.js(\?|$)/.test(url.pathname),
    (route) => (released ? route.continue() : void held.push(route)),
  );
  return async () => {
    released = true;
    for (const route of held.splice(0)) await route.continue().catch(() => {});
  };
}

test("a click before hydration gets the question too; answered, the request arrives; axe light and dark @js-only", async ({
  page,
}) => {
  // Two axe runs and two hydrations: over the default minute on a loaded two-core machine.
  test.setTimeout(180_000);
  const release = await holdScripts(page);
  const { email } = await sendWithoutScript(page);
  await expect(page).toHaveURL(/\/\?gesendet=\d+&pruefung=[\w.-]+#frage$/);
  expect(isQuarantined(findRequestByEmail(email)?.id as number)).toBe(true);
  await expectQuestion(page);
  const question = page.url();
  await release();
  await waitForHydration(page);
  for (const theme of ["light", "dark"] as const) {
    if (theme === "dark") {
      await switchToDarkTheme(page);
      await page.goto(question);
      await waitForHydration(page);
    }
    await expect(page.getByTestId("script-free-check")).toBeVisible();
    const results = await axeOn(page).analyze();
    expect(results.violations.map((v) => `${theme}: ${v.id} ${v.nodes[0]?.target}`)).toEqual([]);
  }
  // With the page hydrated the answer form still posts natively; the request arrives.
  await answerQuestion(page);
  expect(isQuarantined(findRequestByEmail(email)?.id as number)).toBe(false);
  await waitForMail(email, /^Deine Anfrage ist bei uns eingegangen$/);
});
