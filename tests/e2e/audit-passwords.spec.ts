import { randomBytes } from "node:crypto";
import { loginAs, mailLink, signIn } from "./auth";
import { axeOn } from "./axe";
import { expect, test, waitForMail } from "./fixtures";
import { waitForHydration } from "./hydration";

// ADR 263: a guessable new password is refused with German feedback (and "Zu schwach" with JS);
// the audit page filters by actor and offers its CSV, with and without JS, at 390x844.
const unique = () => randomBytes(4).toString("hex");

test.use({ viewport: { width: 390, height: 844 } });

test("a guessable password is refused at the field; a strong one is taken", async ({
  page,
  javaScriptEnabled,
  seed,
}) => {
  const admin = await seed.admin();
  await page.goto("/admin/forgot-password");
  await page.getByLabel("E-Mail-Adresse").fill(admin.email);
  await page.getByRole("button", { name: "Link senden" }).click();
  const mail = await waitForMail(admin.email, /Passwort zurücksetzen/);
  await page.goto(mailLink(mail.text, "/admin/reset-password"));
  if (javaScriptEnabled) await waitForHydration(page);

  // 13 characters, but a dictionary word with digits.
  for (const label of ["Neues Passwort", "Passwort bestätigen"]) {
    await page.getByLabel(label).fill("Passwort12345");
  }
  await page.getByRole("button", { name: "Passwort zurücksetzen" }).click();
  // At the field: its error list (which the input names in aria-describedby) carries the message.
  const feedback = page
    .locator('[id$="-newPassword-error"]')
    .getByText("Dieses Passwort ist zu leicht zu erraten.");
  await expect(feedback).toBeInViewport();
  if (javaScriptEnabled) {
    await expect(page.getByTestId("password-strength")).toHaveText("Passwortstärke: Zu schwach");
  }
  await page.screenshot({ path: test.info().outputPath("weak-password-390.png") });

  const strong = `Wolke-Lampe-${unique()}`;
  for (const label of ["Neues Passwort", "Passwort bestätigen"]) {
    await page.getByLabel(label).fill(strong);
  }
  if (javaScriptEnabled) {
    await expect(page.getByTestId("password-strength")).toHaveText("Passwortstärke: Stark");
  }
  await page.getByRole("button", { name: "Passwort zurücksetzen" }).click();
  await expect(page.getByText("Ihr Passwort wurde erfolgreich zurückgesetzt.")).toBeVisible();
  await loginAs(page, { username: admin.username, password: strong });
});

test("the audit page filters by actor and action and links its CSV; axe clean", async ({
  page,
  javaScriptEnabled,
  seed,
}) => {
  const admin = await seed.admin();
  await signIn(page, admin, { to: "/admin/audit" });
  if (javaScriptEnabled) await waitForHydration(page);
  await page.getByLabel("Wer").selectOption({ label: admin.username });
  await page.getByLabel("Aktion").selectOption({ label: "Anmeldung" });
  await page.getByRole("button", { name: "Filter anwenden" }).click();
  await expect(page).toHaveURL(new RegExp(`actor=${admin.id}&action=login`));
  const rows = page.getByTestId("audit-row");
  await expect(rows.first()).toContainText(admin.username);
  await expect(rows.first()).toContainText("Anmeldung");
  // At 390 the entries are cards: the "Aktion" is on screen, not cut off at the right edge
  // (newcomer walkthrough); the page does not scroll sideways.
  const actionCell = rows.first().locator("[data-audit-action]");
  const region = page.getByRole("region", { name: "Protokolleinträge" });
  expect(await region.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
  await actionCell.scrollIntoViewIfNeeded();
  await expect(actionCell).toBeInViewport({ ratio: 1 });
  await page.screenshot({ path: test.info().outputPath("audit-row-390.png") });
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
  ).toBeLessThanOrEqual(0);
  const csv = page.getByRole("link", { name: "Als CSV exportieren" });
  await expect(csv).toHaveAttribute("href", `/admin/audit.csv?actor=${admin.id}&action=login`);
  await expect(csv).toBeInViewport();
  await page.screenshot({ path: test.info().outputPath("audit-390.png"), fullPage: true });

  // axe runs as a script inside the page: only with JS (the markup is the same without).
  if (javaScriptEnabled) {
    const results = await axeOn(page).analyze();
    expect(results.violations.map((v) => `${v.id} ${v.nodes[0]?.target}`)).toEqual([]);
  }

  const download = page.waitForEvent("download");
  await csv.click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^protokoll-\d{4}-\d{2}-\d{2}\.csv$/);
});
