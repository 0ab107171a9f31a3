import type { APIRequestContext, Page, TestInfo } from "@playwright/test";
import { generateSync } from "otplib";
import { signIn } from "./auth";
import { expect, type SeedApi, test, waitForMail } from "./fixtures";
import { waitForHydration } from "./hydration";
import type { SeededAdmin } from "./seed";

// Step-up for power over other admins (ADR 315), with and without JavaScript, on a phone and on a
// laptop: before a 2FA reset, a reset link, a deactivation, a deletion, a direct activation and a
// change of the 2FA rule the acting admin types the password again — a dialog with JavaScript, a
// section at the top of the page without; the password field has the focus; a wrong password is
// said at the field. The spec's confirmations come first and stay as they are.
test.describe.configure({ timeout: 180_000 });

const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const;

/** A fresh session (no step-up yet) of `me` on the users page, for this viewport. */
async function freshSession(page: Page, me: SeededAdmin, js: boolean, path = "/admin/users") {
  await page.context().clearCookies();
  await signIn(page, me, { to: path });
  if (js) await waitForHydration(page);
}

/** The step as the admin sees it: in view, titled, the password field focused. */
async function expectStepUp(page: Page, js: boolean, action: string) {
  const step = js
    ? page.getByRole("dialog", { name: "Identität bestätigen" })
    : page.getByRole("region", { name: "Identität bestätigen" });
  await expect(step).toBeVisible();
  await expect(step).toContainText(`Für „${action}“ geben Sie bitte noch einmal Ihr Passwort ein`);
  const field = step.getByLabel("Ihr Passwort");
  await expect(field).toBeFocused();
  await expect(field).toBeInViewport();
  return { step, field };
}

async function confirm(page: Page, js: boolean, action: string, password: string) {
  const { step, field } = await expectStepUp(page, js, action);
  await field.fill(password);
  await step.getByRole("button", { name: "Bestätigen" }).click();
}

const shot = (page: Page, info: TestInfo, name: string) =>
  page.screenshot({ path: info.outputPath(`${name}-${page.viewportSize()?.width}.png`) });

/** Turns TOTP on for an admin through the API (the target of "2FA zurücksetzen"). */
async function withTotp(request: APIRequestContext, admin: SeededAdmin) {
  const login = await request.post("/api/admin/auth/login", {
    data: { username: admin.username, password: admin.password },
  });
  const { token } = (await login.json()) as { token: string };
  const headers = { authorization: `Bearer ${token}` };
  const setup = await request.post("/api/admin/account/2fa/setup", {
    headers,
    data: { password: admin.password },
  });
  const { secret } = (await setup.json()) as { secret: string };
  const enabled = await request.post("/api/admin/account/2fa/enable", {
    headers,
    data: { code: generateSync({ secret }) },
  });
  expect(enabled.status()).toBe(200);
}

async function actors(seed: SeedApi) {
  return { me: await seed.admin(), target: await seed.admin() };
}

test("deactivating asks for the password; a wrong one is said at the field; then 5 quiet minutes", async ({
  page,
  seed,
  javaScriptEnabled,
}, info) => {
  const js = javaScriptEnabled !== false;
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    const { me, target } = await actors(seed);
    await freshSession(page, me, js);
    const row = page.getByTestId(`admin-row-${target.username}`);
    await row.getByRole("button", { name: `${target.username} deaktivieren` }).click();
    const action = `${target.username} deaktivieren`;
    const { step, field } = await expectStepUp(page, js, action);
    await shot(page, info, "step-up-deactivate");
    await field.fill("nicht-das-passwort");
    await step.getByRole("button", { name: "Bestätigen" }).click();
    const again = await expectStepUp(page, js, action);
    const error = again.step.getByText("Das Passwort ist falsch.");
    await expect(error).toBeInViewport();
    await expect(again.field).toHaveAttribute("aria-invalid", "true");
    await expect(again.field).toHaveAccessibleDescription("Das Passwort ist falsch.");
    await shot(page, info, "step-up-wrong");
    await again.field.fill(me.password);
    await again.step.getByRole("button", { name: "Bestätigen" }).click();
    await expect(page.getByText(`${target.username} wurde deaktiviert.`)).toBeVisible();
    await expect(row).toContainText("Inaktiv");
    // Within 5 minutes this session asks no more.
    await row.getByRole("button", { name: `${target.username} aktivieren` }).click();
    await expect(page.getByText(`${target.username} wurde aktiviert.`)).toBeVisible();
    await expect(page.locator("[data-step-up]")).toHaveCount(0);
    await waitForMail(target.email, /deaktiviert/);
  }
});

test("'Abbrechen' leaves everything as it was", async ({ page, seed, javaScriptEnabled }) => {
  const js = javaScriptEnabled !== false;
  await page.setViewportSize(VIEWPORTS[0]);
  const { me, target } = await actors(seed);
  await freshSession(page, me, js);
  const row = page.getByTestId(`admin-row-${target.username}`);
  await row.getByRole("button", { name: `${target.username} deaktivieren` }).click();
  const { step } = await expectStepUp(page, js, `${target.username} deaktivieren`);
  await step.getByRole(js ? "button" : "link", { name: "Abbrechen" }).click();
  await expect(page.locator("[data-step-up]")).toHaveCount(0);
  await expect(row).toContainText("Aktiv");
  if (js)
    await expect(
      row.getByRole("button", { name: `${target.username} deaktivieren` }),
    ).toBeFocused();
});

test("2FA reset and deletion: the spec's confirmation first, then the password", async ({
  page,
  seed,
  javaScriptEnabled,
}, info) => {
  const js = javaScriptEnabled !== false;
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    const { me, target } = await actors(seed);
    await withTotp(page.request, target);
    await freshSession(page, me, js);
    const row = page.getByTestId(`admin-row-${target.username}`);
    await expect(row).toContainText("Zwei-Faktor aktiv");
    await row
      .getByRole("button", { name: `Zwei-Faktor-Anmeldung zurücksetzen: ${target.username}` })
      .click();
    if (js) {
      const dialog = page.getByRole("alertdialog", { name: "Zwei-Faktor-Anmeldung zurücksetzen" });
      await dialog.getByRole("button", { name: "Zurücksetzen" }).click();
    } else {
      const confirmation = page.locator("[data-confirmation-step]");
      await confirmation.getByRole("button", { name: "Zurücksetzen" }).click();
    }
    await expectStepUp(page, js, `2FA zurücksetzen: ${target.username}`);
    await shot(page, info, "step-up-2fa-reset");
    await confirm(page, js, `2FA zurücksetzen: ${target.username}`, me.password);
    await expect(
      page.getByText(`Die Zwei-Faktor-Anmeldung von ${target.username} wurde zurückgesetzt.`),
    ).toBeVisible();
    await expect(row).not.toContainText("Zwei-Faktor aktiv");
    await waitForMail(target.email, /Zwei-Faktor-Anmeldung wurde zurückgesetzt/);

    // Deleting another one in a fresh session: the confirmation, then the step-up.
    const victim = await seed.admin();
    await freshSession(page, me, js);
    await page.getByRole("button", { name: `${victim.username} löschen`, exact: true }).click();
    if (js) {
      await page
        .getByRole("alertdialog", { name: "Admin löschen" })
        .getByRole("button", { name: "Bestätigen", exact: true })
        .click();
    } else {
      await page
        .locator("[data-confirmation-step]")
        .getByRole("button", { name: "Bestätigen", exact: true })
        .click();
    }
    await expectStepUp(page, js, `Admin löschen: ${victim.username}`);
    await shot(page, info, "step-up-delete");
    await confirm(page, js, `Admin löschen: ${victim.username}`, me.password);
    await expect(page.getByText(`${victim.username} wurde gelöscht.`)).toBeVisible();
    await expect(page.getByTestId(`admin-row-${victim.username}`)).toHaveCount(0);
  }
});

test("a reset link for another admin goes to their mailbox; a direct activation shows the credentials", async ({
  page,
  seed,
  javaScriptEnabled,
}, info) => {
  const js = javaScriptEnabled !== false;
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    const { me, target } = await actors(seed);
    await freshSession(page, me, js);
    await page
      .getByRole("button", { name: `Passwort-Reset-Link erzeugen: ${target.username}` })
      .click();
    await expectStepUp(page, js, `Passwort-Reset-Link erzeugen: ${target.username}`);
    await shot(page, info, "step-up-reset-link");
    await confirm(page, js, `Passwort-Reset-Link erzeugen: ${target.username}`, me.password);
    // Announced (the toast region is aria-live) and in view.
    const sent = page
      .getByRole("region", { name: "Benachrichtigungen" })
      .getByText(`per E-Mail an ${target.username} (${target.email}) gesendet`);
    await expect(sent).toBeInViewport();
    // Never shown to the actor (this server has SMTP).
    await expect(page.getByTestId("reset-link")).toHaveCount(0);
    const mail = await waitForMail(target.email, /Zurücksetzen Ihres Passworts/);
    expect(mail.text).toContain(me.username);
    expect(mail.text).toMatch(/\/admin\/reset-password\?token=/);

    // Within the 5 minutes: a direct activation asks nothing more.
    const email = `direkt-${Math.random().toString(36).slice(2, 8)}@example.com`;
    await page.getByLabel("E-Mail-Adresse").fill(email);
    await page.getByRole("button", { name: "Einladung senden" }).click();
    await expect(page.getByText(`Einladung an ${email} gesendet.`)).toBeVisible();
    // A fresh session asks again.
    await freshSession(page, me, js);
    const invitation = page.getByTestId(`invitation-row-${email}`);
    await invitation.getByText("Aktionen").click();
    await invitation.getByRole("button", { name: "Direkt freischalten" }).click();
    await expectStepUp(page, js, `Direkt freischalten: ${email}`);
    await shot(page, info, "step-up-activate");
    await confirm(page, js, `Direkt freischalten: ${email}`, me.password);
    const username = page.getByTestId("activated-username");
    await expect(username).toHaveText(/^direkt-/);
    // The credentials are in view (with JavaScript the page does not reload: they take the focus).
    await expect(page.getByTestId("activated-password")).toBeInViewport();
    await expect(page.getByTestId(`invitation-row-${email}`)).toHaveCount(0);
    await shot(page, info, "step-up-activated");
  }
});

test("changing the 2FA rule asks for the password; saving it unchanged does not", async ({
  page,
  seed,
  javaScriptEnabled,
}, info) => {
  const js = javaScriptEnabled !== false;
  // Restored after the test, whatever happens here.
  seed.configuration({ security: { requireTwoFactor: false } });
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    const me = await seed.admin();
    await freshSession(page, me, js, "/admin/account#zwei-faktor-regel");
    const save = page.getByRole("button", { name: "Regel speichern" });
    await save.click();
    await expect(
      page.getByText("Die Zwei-Faktor-Anmeldung ist nicht mehr für alle Admins vorgeschrieben."),
    ).toBeVisible();
    await expect(page.locator("[data-step-up]")).toHaveCount(0);
    await page.getByLabel("Zwei-Faktor-Anmeldung für alle Admins verlangen").check();
    await save.click();
    await expectStepUp(page, js, "Zwei-Faktor-Anmeldung für alle Admins verlangen");
    await shot(page, info, "step-up-2fa-rule");
    await confirm(page, js, "Zwei-Faktor-Anmeldung für alle Admins verlangen", me.password);
    await expect(
      page.getByText("Die Zwei-Faktor-Anmeldung ist jetzt für alle Admins vorgeschrieben."),
    ).toBeVisible();
    // Back off for the next round (the rule now holds this admin at the enrolment).
    seed.configuration({ security: { requireTwoFactor: false } });
  }
});

test("creating an API token takes the password in its own form", async ({
  page,
  seed,
  javaScriptEnabled,
}, info) => {
  const js = javaScriptEnabled !== false;
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    const me = await seed.admin();
    await freshSession(page, me, js, "/admin/account");
    const section = page.getByRole("region", { name: "API-Zugänge" });
    await section.getByLabel("Name").fill("CRM");
    await section.getByRole("checkbox", { name: /requests:read/ }).check();
    await section.getByLabel("Aktuelles Passwort").fill("nicht-das-passwort");
    await section.getByRole("button", { name: "API-Zugang erstellen" }).click();
    const wrong = section.getByText("Das Passwort ist falsch.");
    await expect(wrong).toBeVisible();
    await wrong.scrollIntoViewIfNeeded();
    await expect(wrong).toBeInViewport();
    await shot(page, info, "api-token-wrong-password");
    await section.getByLabel("Name").fill("CRM");
    await section.getByRole("checkbox", { name: /requests:read/ }).check();
    await section.getByLabel("Aktuelles Passwort").fill(me.password);
    await section.getByRole("button", { name: "API-Zugang erstellen" }).click();
    await expect(
      section.getByRole("status").filter({ hasText: "API-Zugang erstellt." }),
    ).toBeVisible();
    await expect(page.locator("[data-step-up]")).toHaveCount(0);
    await shot(page, info, "api-token-created");
  }
});
