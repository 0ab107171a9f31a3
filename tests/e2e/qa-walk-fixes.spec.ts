import { randomBytes } from "node:crypto";
import type { Locator, Page, Route } from "@playwright/test";
import { loginAs } from "./auth";
import { expect, test, waitForMail } from "./fixtures";
import { waitForHydration } from "./hydration";

// A newcomer's QA walk of the admin: a form filled before hydration, the forgot-password answer
// without SMTP, the awaiting-activation notice (accounts-golive.spec.ts), a settings message
// under the sticky save bar, the generated prompt below the fold.

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const tag = () => randomBytes(4).toString("hex");

function mailLink(text: string, path: string) {
  const match = text.match(new RegExp(`https?://\\S+${path}\\?token=[\\w%-]+`));
  if (!match) throw new Error(`no ${path} link in: ${text}`);
  const url = new URL(match[0]);
  return url.pathname + url.search;
}

/** The element's centre is on screen and the topmost element there is the element (or inside it). */
async function expectUncovered(locator: Locator) {
  await expect(locator).toBeInViewport({ ratio: 1 });
  const hit = await locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return top !== null && (top === el || el.contains(top));
  });
  expect(hit, "nothing lies over it").toBe(true);
}

test("reset password: fields filled before the page hydrates keep the button enabled; the reset works @js-only", async ({
  page,
  seed,
}, testInfo) => {
  await page.setViewportSize(PHONE);
  const admin = await seed.admin();
  const asked = await page.request.post("/admin/forgot-password", {
    form: { email: admin.email },
  });
  expect(asked.ok()).toBe(true);
  const mail = await waitForMail(admin.email, /Passwort zurücksetzen/);

  // The page's JavaScript is held back until both fields are filled (a password manager).
  const held: Route[] = [];
  let released = false;
  await page.route(/\.js(\?.*)?$/, (route) => {
    if (released) return route.continue();
    held.push(route);
  });
  await page.goto(mailLink(mail.text, "/admin/reset-password"), { waitUntil: "commit" });
  const newPassword = `frueh-${tag()}`;
  await page.getByLabel("Neues Passwort").fill(newPassword);
  await page.getByLabel("Passwort bestätigen").fill(newPassword);
  released = true;
  for (const route of held.splice(0)) await route.continue();
  await waitForHydration(page);

  const submit = page.getByRole("button", { name: "Passwort zurücksetzen" });
  await expect(page.getByTestId("password-strength")).toHaveText("Passwortstärke: Stark");
  await expect(submit).toBeEnabled();
  await page.screenshot({ path: testInfo.outputPath("reset-prefilled-390.png") });
  await submit.click();
  await expect(page.getByText("Ihr Passwort wurde erfolgreich zurückgesetzt.")).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/login\?notice=reset/, { timeout: 8000 });
  await loginAs(page, { username: admin.username, password: newPassword });
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
});

test("forgot password without SMTP: the answer does not claim a mail was sent", async ({
  page,
  javaScriptEnabled,
  plainApp,
}, testInfo) => {
  await page.setViewportSize(PHONE);
  await page.goto(`${plainApp.url}/admin/forgot-password`);
  if (javaScriptEnabled) await waitForHydration(page);
  await page.getByLabel("E-Mail-Adresse").fill(`vergessen-${tag()}@example.com`);
  await page.getByRole("button", { name: "Link senden" }).click();
  const answer = page.getByRole("status").filter({ hasText: "Ihre Anfrage wurde gespeichert." });
  await expect(answer).toBeInViewport();
  await expect(answer).toContainText("wird keine E-Mail verschickt");
  await expect(answer).toContainText("Passwort-Reset-Link zu erzeugen");
  await expect(page.getByText("wurde ein Link zum Zurücksetzen")).toHaveCount(0);
  await expect(page.getByRole("alert")).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath("forgot-no-smtp-390.png"), fullPage: true });
});

test("forgot password with SMTP: the spec's neutral text", async ({ page, javaScriptEnabled }) => {
  await page.goto("/admin/forgot-password");
  if (javaScriptEnabled) await waitForHydration(page);
  await page.getByLabel("E-Mail-Adresse").fill(`vergessen-${tag()}@example.com`);
  await page.getByRole("button", { name: "Link senden" }).click();
  await expect(page.getByRole("status")).toHaveText(
    "Falls ein Konto mit dieser E-Mail-Adresse existiert, wurde ein Link zum Zurücksetzen des Passworts gesendet.",
  );
});

test("login: a wrong password stays a red error", async ({ page, javaScriptEnabled, seed }) => {
  const admin = await seed.admin();
  await page.goto("/admin/login");
  if (javaScriptEnabled) await waitForHydration(page);
  await page.getByLabel("Benutzername").fill(admin.username);
  await page.getByLabel("Passwort", { exact: true }).fill(`falsch-${tag()}`);
  await page.getByRole("button", { name: "Anmelden" }).click();
  await expect(
    page.getByRole("alert").filter({ hasText: "Ungültiger Benutzername oder Passwort." }),
  ).toBeVisible();
});

/** Puts `field` under the sticky save bar (its bottom 20 px above the window's lower edge). */
async function hideUnderSaveBar(field: Locator) {
  await field.evaluate((el) => {
    const r = el.getBoundingClientRect();
    window.scrollBy(0, r.bottom - (window.innerHeight - 20));
  });
}

test("settings at 390 px: a refused number's German message sits above the sticky save bar", async ({
  page,
  loginAsNew,
  seed,
  javaScriptEnabled,
}, testInfo) => {
  seed.configuration({});
  await page.setViewportSize(PHONE);
  await loginAsNew(page);
  await page.goto("/admin/settings");
  if (javaScriptEnabled) await waitForHydration(page);
  const field = page.getByLabel("Max. Dateien pro Anfrage");
  const message = page.getByText("Bitte geben Sie eine ganze Zahl von 1 bis 10 ein.");
  const save = page.getByRole("button", { name: "Konfiguration speichern" });

  if (javaScriptEnabled) {
    // The browser's own check: the field is focused, its German message under it is visible.
    await field.fill("99");
    await hideUnderSaveBar(field);
    await save.click();
    await expect(field).toBeFocused();
    await expectUncovered(field);
    await expectUncovered(message);
    await page.screenshot({ path: testInfo.outputPath("settings-max-files-browser-390.png") });
  }

  // The server's check (the browser's bypassed).
  await field.evaluate((el) => el.removeAttribute("max"));
  await field.fill("99");
  await hideUnderSaveBar(field);
  await save.click();
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(field).toBeFocused();
  await expectUncovered(field);
  await expectUncovered(message);
  await page.screenshot({ path: testInfo.outputPath("settings-max-files-server-390.png") });
});

async function openPrompt(page: Page, seedId: number, javaScriptEnabled: boolean, m: string) {
  await page.goto(`/admin/requests?requestId=${seedId}`);
  const view = page.getByRole("dialog", { name: `Kundin ${m}` });
  await expect(view).toBeVisible();
  if (javaScriptEnabled) await waitForHydration(page);
  return view;
}

test("request AI tools at 1280 px: the generated prompt is brought into view", async ({
  page,
  javaScriptEnabled,
  seed,
}, testInfo) => {
  await page.setViewportSize(DESKTOP);
  const m = tag();
  const id = await seed.request({
    name: `Kundin ${m}`,
    email: `${m}@example.com`,
    phone: "+49 30 1234 5678",
    companyDescription: `Bäckerei ${m} mit drei Filialen in Berlin`,
    description: `Eine App für Vorbestellungen ${m}.`,
  });
  await loginAs(page, await seed.admin());
  const view = await openPrompt(page, id, javaScriptEnabled, m);
  await view.getByRole("button", { name: "Prompt für KI-Coding-Assistent erstellen" }).click();
  const prompt = view.getByLabel("Prompt", { exact: true });
  await expect(prompt).toHaveValue(/Prompt für den Coding-Assistenten/);
  await expect(prompt).toBeInViewport();
  // With JS it is focused (announced by its label); without JS the answer page opens at its anchor.
  if (javaScriptEnabled) await expect(prompt).toBeFocused();
  else await expect(page).toHaveURL(new RegExp(`#prompt-result-${id}$`));
  await page.screenshot({ path: testInfo.outputPath("prompt-1280.png") });
});
