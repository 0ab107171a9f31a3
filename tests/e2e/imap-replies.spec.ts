// Replies by IMAP (ADR 285), with and without JavaScript: on the app server polling a
// loopback IMAP stand-in (tests/e2e/stack.ts), a lead's reply to a message lands in the request's
// thread as "Antwort vom Kunden", the list shows "Neue Antwort" until the request is opened. And
// the transcription budget (`transcription.dailyLimit`) is set on the settings page.

import type { Page } from "@playwright/test";
import { signIn } from "./auth";
import { axeOn } from "./axe";
import { expect, test, waitForMail } from "./fixtures";
import { waitForHydration } from "./hydration";

test.describe.configure({ timeout: 120_000 });

async function axeClean(page: Page, javaScriptEnabled: boolean, include?: string) {
  if (!javaScriptEnabled) return;
  await waitForHydration(page);
  const builder = axeOn(page);
  const axe = await (include ? builder.include(include) : builder).analyze();
  expect(axe.violations.map((v) => `${v.id} ${v.nodes[0]?.target}`)).toEqual([]);
}

test("a lead's reply by mail shows in the thread and marks the request until it is opened", async ({
  page,
  imapApp,
  javaScriptEnabled,
}, testInfo) => {
  const m = Math.random().toString(16).slice(2, 10);
  const lead = `antwort-${m}@example.com`;
  const name = `Kundin ${m}`;
  const { url, imap } = imapApp;
  // Set-up through the API: a request (no proof of work on this server) and a message to the lead.
  const created = await page.request.post(`${url}/api/requests`, {
    multipart: {
      name,
      email: lead,
      phone: "+49 30 1234567",
      companyDescription: "Wir sind eine Gärtnerei.",
      description: "Eine App für Pflanzenabos.",
    },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: number };
  const login = await page.request.post(`${url}/api/admin/auth/login`, { data: imapApp.admin });
  const { token } = (await login.json()) as { token: string };
  const headers = { authorization: `Bearer ${token}` };
  const sent = await page.request.post(`${url}/api/admin/requests/${id}/messages`, {
    headers,
    data: { subject: `Rückfrage ${m}`, body: "Wie viele Standorte habt ihr?" },
  });
  expect(sent.status()).toBe(201);
  const mail = await waitForMail(lead, new RegExp(`Rückfrage ${m}`));
  expect(mail.replyTo[0]).toMatch(/^antworten\+r\d+\.[0-9a-f]{16}@example\.com$/);

  // The lead answers; the server polls every second (state seen through the API, no sleeps).
  imap.add(
    [
      `From: ${name} <${lead}>`,
      `To: ${mail.replyTo[0]}`,
      `Subject: Re: Rückfrage ${m}`,
      `Message-ID: <reply-${m}@example.com>`,
      `In-Reply-To: ${mail.messageId}`,
      "Content-Type: text/plain; charset=utf-8",
      "",
      "Wir haben drei Standorte in Berlin.",
    ].join("\n"),
  );
  await expect
    .poll(
      async () =>
        (
          (await (
            await page.request.get(`${url}/api/admin/requests/${id}`, { headers })
          ).json()) as {
            messages: { direction: string }[];
          }
        ).messages.map((x) => x.direction),
      { timeout: 30_000 },
    )
    .toEqual(["out", "in"]);

  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, imapApp.admin, { to: `/admin/requests`, baseUrl: url });
  if (javaScriptEnabled) await waitForHydration(page);
  const row = page.locator(`[data-request-id="${id}"]`);
  const badge = row.getByText("Neue Antwort", { exact: true });
  await badge.scrollIntoViewIfNeeded();
  await expect(badge).toBeInViewport();
  await axeClean(page, javaScriptEnabled);
  await page.screenshot({ path: testInfo.outputPath("list-new-reply-390.png") });

  await page.goto(`${url}/admin/requests?requestId=${id}`);
  if (javaScriptEnabled) await waitForHydration(page);
  const reply = page.locator('[data-message-id][data-direction="in"]');
  await reply.scrollIntoViewIfNeeded();
  await expect(reply.getByText("Antwort vom Kunden")).toBeInViewport();
  await expect(reply.getByText("Wir haben drei Standorte in Berlin.")).toBeVisible();
  await expect(reply.getByText("Empfangen", { exact: true })).toBeVisible();
  await expect(page.getByText("Antworten erscheinen hier im Verlauf")).toBeVisible();
  await axeClean(page, javaScriptEnabled);
  await page.screenshot({ path: testInfo.outputPath("thread-reply-390.png") });
  await page.setViewportSize({ width: 1280, height: 800 });
  await reply.scrollIntoViewIfNeeded();
  await expect(reply).toBeInViewport();
  await page.screenshot({ path: testInfo.outputPath("thread-reply-1280.png") });

  // Opened once: the list no longer marks it.
  await page.goto(`${url}/admin/requests`);
  await expect(row).toBeVisible();
  await expect(row.getByText("Neue Antwort", { exact: true })).toHaveCount(0);
});

test("the transcription budget is set on the settings page", async ({
  page,
  openSettings,
  javaScriptEnabled,
}, testInfo) => {
  await openSettings(page, { viewport: { width: 390, height: 844 } });
  const section = page.locator("#spam");
  const field = section.getByLabel("Transkriptionen von Sprachnachrichten pro Tag höchstens");
  await expect(field).toHaveValue("100");
  await field.fill("7");
  await axeClean(page, javaScriptEnabled, "#spam");
  await page.getByRole("button", { name: "Konfiguration speichern" }).click();
  await expect(page.getByText("Konfiguration erfolgreich gespeichert!")).toBeVisible({
    timeout: 30_000,
  });
  await page.reload();
  if (javaScriptEnabled) await waitForHydration(page);
  await expect(field).toHaveValue("7");
  await field.scrollIntoViewIfNeeded();
  await expect(field).toBeInViewport();
  await section.screenshot({ path: testInfo.outputPath("settings-transcription-390.png") });
});
