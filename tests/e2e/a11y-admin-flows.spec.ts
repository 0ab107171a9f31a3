import type { Page } from "@playwright/test";
import { signIn } from "./auth";
import { axeOn } from "./axe";
import { expect, test, waitForMail } from "./fixtures";
import { waitForHydration } from "./hydration";
import { findAdmin, removeAdmin } from "./seed";
import { switchToDarkTheme } from "./theme";

// The admin pages changed for the rough edges of ADR 342 that a11y-admin.spec.ts does not walk, in
// the state the change concerns — light and dark, at 390 and 1280 px: the audit log with a status
// change in German, /admin/legacy with a colleague waiting, the full-screen request view with its
// appointment, the registration page with its rule hint, the reset page with its indicator on a
// refused password, the login page with its time-out alert. JS-on only (axe runs in the page).
test.describe.configure({ timeout: 240_000 });

async function violations(page: Page) {
  const results = await axeOn(page).analyze();
  return results.violations.map(
    (v) => `${new URL(page.url()).pathname} ${v.id} (${v.nodes.length}) ${v.nodes[0]?.target}`,
  );
}

async function apiToken(page: Page, admin: { username: string; password: string }) {
  const res = await page.request.post("/api/admin/auth/login", { data: admin });
  return ((await res.json()) as { token: string }).token;
}

for (const theme of ["light", "dark"] as const) {
  for (const size of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    test(`audit, legacy, request view, registration, reset and login time-out have no axe violations (${theme}, ${size.width})`, async ({
      page,
      seed,
    }) => {
      await page.setViewportSize(size);
      if (theme === "dark") await switchToDarkTheme(page);
      const admin = await seed.admin();
      const token = await apiToken(page, admin);
      const id = await seed.request({ name: `Axe ${theme} ${size.width}` });
      seed.appointment({
        name: "Demo-Termin",
        startTime: new Date(Date.now() + 8 * 86_400_000),
        status: "ACCEPTED",
        requestId: id,
      });
      const changed = await page.request.put(`/api/admin/requests/${id}`, {
        headers: { authorization: `Bearer ${token}` },
        data: { status: "Done" },
      });
      expect(changed.status()).toBe(200);
      const email = `axe-${Math.random().toString(36).slice(2, 8)}@example.com`;
      const invited = await page.request.post("/api/admin/invite", {
        headers: { authorization: `Bearer ${token}` },
        data: { email },
      });
      const { invitationToken } = (await invited.json()) as { invitationToken: string };
      try {
        // Public pages first: registration with its hint, the login's time-out.
        await page.goto(`/admin/register?token=${encodeURIComponent(invitationToken)}`);
        await expect(page.getByText(/Mindestens 12 Zeichen/).first()).toBeVisible();
        await expect(page.locator("html")).toHaveClass(theme === "dark" ? /dark/ : /^(?!.*dark)/);
        expect(await violations(page)).toEqual([]);
        // She registers: her account waits for activation (legacy names it below).
        const registered = await page.request.post("/api/admin/register", {
          data: {
            invitationToken,
            username: email.split("@")[0],
            password: "Wolke-Lampe-Fahrrad-91",
          },
        });
        expect(registered.status()).toBe(201);

        await page.clock.install();
        await page.goto("/admin/login");
        await waitForHydration(page);
        await page.route(/\/admin\/login\.data/, (route) =>
          route.request().method() === "POST" ? undefined : route.continue(),
        );
        await page.getByLabel("Benutzername").fill(admin.username);
        await page.getByLabel("Passwort", { exact: true }).fill(admin.password);
        await page.getByRole("button", { name: "Anmelden" }).click();
        await expect(page.getByRole("button", { name: "Anmeldung läuft..." })).toBeVisible();
        await page.clock.runFor(15_000);
        await expect(page.getByRole("alert").filter({ hasText: "Login-Timeout" })).toBeVisible();
        expect(await violations(page)).toEqual([]);
        await page.unroute(/\/admin\/login\.data/);

        // The reset page with a refused password: "Zu schwach" and its reason.
        await page.goto("/admin/forgot-password");
        await page.getByLabel("E-Mail-Adresse").fill(admin.email);
        await page.getByRole("button", { name: "Link senden" }).click();
        const mail = await waitForMail(admin.email, /Passwort zurücksetzen/);
        const link = mail.text.match(/https?:\/\/\S+\/admin\/reset-password\?token=\S+/)?.[0];
        expect(link).toBeTruthy();
        const reset = new URL(link as string);
        await page.goto(reset.pathname + reset.search);
        await waitForHydration(page);
        await page.getByLabel("Neues Passwort", { exact: true }).fill("aaaaaaaaaaaaaa");
        await expect(page.getByTestId("password-strength")).toHaveText(
          "Passwortstärke: Zu schwach",
        );
        expect(await violations(page)).toEqual([]);

        await signIn(page, admin, { to: `/admin/audit?actor=${admin.id}&action=status` });
        await expect(page.getByText("Status: Neu → Erledigt").first()).toBeVisible();
        expect(await violations(page)).toEqual([]);

        await page.goto("/admin/legacy");
        const admins = page.locator("p", { hasText: /^Admins$/ }).locator("..");
        await expect(admins).toContainText(/\d+ aktiv · \d+ (wartet|warten) auf Freischaltung/);
        expect(await violations(page)).toEqual([]);

        await page.goto(`/admin/requests?requestId=${id}`);
        await expect(
          page.locator("[data-request-appointments]").getByRole("heading", { name: "Termine (1)" }),
        ).toBeVisible();
        expect(await violations(page)).toEqual([]);
      } finally {
        const waiting = findAdmin(email);
        if (waiting) removeAdmin(waiting.id);
      }
    });
  }
}
