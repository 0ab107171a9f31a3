import { and, eq, gt } from "drizzle-orm";
import { db } from "~/server/platform/db.server";
import { mailOutbox } from "~db/schema";
import { expect, test, waitForMail } from "./fixtures";
import { bookAndOpenManageLink } from "./manage-helpers";

test("a visitor reschedules and then cancels a booked demo through the link in the mail", async ({
  page,
  javaScriptEnabled,
}) => {
  const tag = Math.random().toString(36).slice(2, 8);
  const who = { name: `Vera Verwalten ${tag}`, email: `vera-${tag}@example.com` };
  const { path, mail } = await bookAndOpenManageLink(page, javaScriptEnabled, who);
  // The confirmation carries the calendar invite.
  expect(
    mail.attachments.some((a) => a.mimeType === "text/calendar" && a.method === "REQUEST"),
  ).toBe(true);

  await page.goto(path);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Dein Demo-Termin");
  const before = (await page.locator("dl").textContent()) ?? "";

  // Reschedule: a day and a time on the same server-rendered picker as the booking page.
  await page.getByRole("link", { name: "Termin verschieben" }).click();
  await expect(page.getByRole("heading", { name: "Neuen Termin wählen" })).toBeVisible();
  await page.getByRole("link", { name: "Nächster Monat" }).click();
  await page.locator("a[aria-label][href*='tag=']").nth(1).click();
  const labels = page.locator("form label:has(input[name=startTime])");
  await expect(labels.first()).toBeVisible();
  await labels.nth(2).click();
  await page.getByRole("button", { name: "Termin verschieben" }).click();
  await expect(page.getByText("Dein Termin wurde verschoben.")).toBeVisible();
  await expect(page).toHaveURL(/erledigt=verschoben/);
  expect(await page.locator("dl").textContent()).not.toBe(before);
  // The moved booking's invitation waits for the one-invitation-per-address-per-hour budget
  // (ADR 255): held in the outbox; once its hour has passed (made to pass here) it is sent.
  const held = and(
    eq(mailOutbox.to, who.email),
    eq(mailOutbox.kind, "booking-rescheduled"),
    eq(mailOutbox.status, "pending"),
    gt(mailOutbox.nextAttemptAt, new Date()),
  );
  expect(db().select().from(mailOutbox).where(held).all()).toHaveLength(1);
  db().update(mailOutbox).set({ nextAttemptAt: new Date() }).where(held).run();
  const moved = await waitForMail(who.email, /verschoben/);
  expect(moved.attachments.some((a) => a.method === "REQUEST")).toBe(true);

  // The link of the first mail is outdated now.
  const outdated = await page.request.get(path);
  expect(outdated.status()).toBe(410);

  // Cancel with a confirmation step; "keep" goes back without a change.
  await page.getByRole("link", { name: "Termin absagen" }).click();
  await expect(page.getByText("Möchtest du diesen Termin wirklich absagen?")).toBeVisible();
  await page.getByRole("link", { name: "Nein, Termin behalten" }).click();
  await expect(page.getByRole("link", { name: "Termin absagen" })).toBeVisible();
  await page.getByRole("link", { name: "Termin absagen" }).click();
  await page.getByRole("button", { name: "Ja, Termin absagen" }).click();
  await expect(page.getByText("Dein Termin wurde abgesagt.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Termin verschieben" })).toHaveCount(0);
  const cancelled = await waitForMail(who.email, /abgesagt/);
  expect(cancelled.attachments.some((a) => a.method === "CANCEL")).toBe(true);

  // The first link now tells the visitor the demo is cancelled (German page, 410).
  const response = await page.goto(path);
  expect(response?.status()).toBe(410);
  await expect(
    page.getByText("Dieser Termin wurde bereits abgesagt.", { exact: false }),
  ).toBeVisible();
});

test("a forged manage link gets a German error page, not a server error @static", async ({
  page,
}) => {
  const response = await page.goto("/termin/verwalten?token=abc.def");
  expect(response?.status()).toBe(400);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Demo-Termin verwalten");
  await expect(page.getByText("Dieser Link ist ungültig.", { exact: false })).toBeVisible();
});
