import type { Page } from "@playwright/test";
import { axeOn } from "./axe";
import { requestIdOf } from "./fidelity-helpers";
import { expect, test, waitForMail } from "./fixtures";
import { waitForHydration } from "./hydration";
import { isQuarantined } from "./seed";

// The visitor side of the spam defence (ADR 250). With JS the invisible ALTCHA widget
// loads on the first interaction with the form and solves by itself; a submission waits for it
// and takes the normal flow (the receipt arrives). Without JS the same form posts without a
// solution: the request waits in the quarantine and the success page asks one question (ADR 326).
test.use({ viewport: { width: 390, height: 844 } });

const RECEIPT = /^Deine Anfrage ist bei uns eingegangen$/;

async function fillContactForm(page: Page, who: { name: string; email: string }) {
  const cookies = page.getByRole("button", { name: "Nur notwendige" });
  if (await cookies.isVisible()) await cookies.click();
  await page.getByLabel("Name").fill(who.name);
  await page.getByLabel("E-Mail").fill(who.email);
  await page.getByLabel("Telefon").fill("+49 40 555 9876");
  await page
    .getByLabel("Beschreibe dein Unternehmen")
    .fill("Eine Tischlerei mit acht Leuten in Hamburg");
}

test("a visitor's request: solved by the widget with JS (normal flow), quarantined without", async ({
  page,
  javaScriptEnabled,
}, testInfo) => {
  const tag = Math.random().toString(36).slice(2, 8);
  const who = { name: `Tilda Tischler ${tag}`, email: `tilda-${tag}@example.com` };
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script" || request.url().includes("/assets/"))
      scripts.push(new URL(request.url()).pathname);
  });
  await page.goto("/");
  // Nothing of the widget before the first interaction (the page's 0 KB initial JS, ADR 170).
  expect(scripts.filter((path) => path.includes("altcha"))).toEqual([]);
  if (javaScriptEnabled) await waitForHydration(page);
  await fillContactForm(page, who);
  const status = page.getByRole("status").filter({ hasText: /Prüfung|prüfen/ });

  if (javaScriptEnabled) {
    // Loaded on the first interaction: the widget's chunk and its worker from /assets.
    await expect(status).toHaveText("Prüfung abgeschlossen.", { timeout: 30_000 });
    await expect(page.locator("#contact-form altcha-widget")).toHaveCount(1);
    expect(scripts.some((path) => /^\/assets\/altcha-widget\.client-.+\.js$/.test(path))).toBe(
      true,
    );
    expect(scripts.some((path) => /^\/assets\/pbkdf2-.+\.js$/.test(path))).toBe(true);
    // Beside the submit button, where the visitor looks before sending.
    await page.getByRole("button", { name: "Anfrage senden" }).scrollIntoViewIfNeeded();
    await expect(status).toBeInViewport();
    await page.screenshot({ path: testInfo.outputPath("altcha-verified.png") });
  }
  await page.getByRole("button", { name: "Anfrage senden" }).click();
  const success = page.getByTestId("submission-success");
  await expect(success).toContainText(`Vielen Dank, ${who.name}!`);
  await expect(success).toBeInViewport();
  const id = requestIdOf(who.email);
  if (javaScriptEnabled) {
    expect(isQuarantined(id)).toBe(false);
    await waitForMail(who.email, RECEIPT);
  } else {
    // Held for want of the proof of work: the thank-you page asks the script-free question
    // (ADR 326, tests/e2e/script-free-challenge.spec.ts); never a word of spam or quarantine.
    expect(isQuarantined(id)).toBe(true);
    await expect(page.getByTestId("script-free-check")).toBeVisible();
    await expect(page.getByText(/quarant|spam/i)).toHaveCount(0);
  }
  await page.screenshot({ path: testInfo.outputPath("success.png") });
});

// The widget needs JS; without it the form posts at once (the js-off project skips @js-only).
test("with JS a submission waits for the proof of work and says so @js-only", async ({
  page,
}, testInfo) => {
  const tag = Math.random().toString(36).slice(2, 8);
  const who = { name: `Wanda Warten ${tag}`, email: `wanda-${tag}@example.com` };
  // The challenge is held back until the visitor has pressed "Anfrage senden".
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route("**/api/altcha/challenge", async (route) => {
    await held;
    await route.continue();
  });
  const posts: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname === "/api/requests")
      posts.push(request.url());
  });
  await page.goto("/");
  await waitForHydration(page);
  await fillContactForm(page, who);
  await page.getByRole("button", { name: "Anfrage senden" }).click();
  const status = page.getByRole("status").filter({ hasText: "Einen Moment noch" });
  await expect(status).toHaveText(
    "Einen Moment noch: Die Prüfung läuft, danach wird deine Anfrage gesendet …",
  );
  await expect(status).toBeInViewport();
  await expect(page.getByRole("button", { name: "Wird gesendet …" })).toBeDisabled();
  expect(posts).toEqual([]);
  await page.screenshot({ path: testInfo.outputPath("altcha-waiting.png") });
  const axe = await axeOn(page).analyze();
  expect(axe.violations.map((v) => `${v.id} ${v.nodes[0]?.target}`)).toEqual([]);

  release();
  await expect(page.getByTestId("submission-success")).toContainText(`Vielen Dank, ${who.name}!`);
  expect(posts).toHaveLength(1);
  expect(isQuarantined(requestIdOf(who.email))).toBe(false);
});

test("an expired solution is replaced by a fresh one before the submission @js-only", async ({
  page,
}) => {
  const tag = Math.random().toString(36).slice(2, 8);
  const who = { name: `Erik Ewig ${tag}`, email: `erik-${tag}@example.com` };
  const challenges: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/api/altcha/challenge") challenges.push(request.url());
  });
  // The page's clock runs on naturally and can jump: the visitor leaves the tab for 11 minutes.
  await page.clock.install();
  await page.goto("/");
  await waitForHydration(page);
  await fillContactForm(page, who);
  const status = page.getByRole("status").filter({ hasText: /Prüfung|prüfen/ });
  await expect(status).toHaveText("Prüfung abgeschlossen.", { timeout: 30_000 });
  expect(challenges).toHaveLength(1);
  await page.clock.fastForward("11:00");
  await page.getByRole("button", { name: "Anfrage senden" }).click();
  await expect(page.getByTestId("submission-success")).toContainText(`Vielen Dank, ${who.name}!`);
  // A second challenge was fetched and solved; the server took the fresh solution.
  expect(challenges).toHaveLength(2);
  expect(isQuarantined(requestIdOf(who.email))).toBe(false);
});
