// Voice transcripts and messages to the lead (ADRs 272–273), with and without
// JavaScript: the transcript of a recording shows under the player (row details and full-screen
// view) and is found by the search; "Erneut transkribieren" starts it again; "Nachricht an den
// Kunden" mails the lead with Reply-To the admin and keeps the thread in the request.

import type { Page } from "@playwright/test";
import { signIn } from "./auth";
import { axeOn } from "./axe";
import { currentStack, expect, test, waitForMail } from "./fixtures";
import { waitForHydration } from "./hydration";
import { adminExtras } from "./seed";

test.use({ viewport: { width: 390, height: 844 } });

const TRANSCRIPT = "Hallo, wir sind eine Gärtnerei und brauchen eine App für Pflanzenabos.";

async function axeClean(page: Page, javaScriptEnabled: boolean) {
  if (!javaScriptEnabled) return;
  await waitForHydration(page);
  const axe = await axeOn(page).analyze();
  expect(axe.violations.map((v) => `${v.id} ${v.nodes[0]?.target}`)).toEqual([]);
}

test("the transcript is shown under the player, searchable, and can be started again", async ({
  page,
  loginAsNew,
  javaScriptEnabled,
  seed,
}, testInfo) => {
  const m = Math.random().toString(16).slice(2, 10);
  const name = `Gärtnerin ${m}`;
  const id = await seed.request({ name, audio: true });
  // The server's worker transcribes it right after the submission (stand-in on loopback).
  await expect.poll(() => adminExtras(id)?.voiceTranscriptStatus).toBe("done");
  const call = currentStack().transcription.calls.at(-1);
  expect(call?.language).toBe("de");
  expect(call?.audio.length).toBeGreaterThan(0);
  await loginAsNew(page);

  // Found by what was said (diacritics folded), and in the row's details under the player.
  await page.goto(`/admin/requests?q=pflanzenabos+${m}`);
  if (javaScriptEnabled) await waitForHydration(page);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Aktive Anfragen (1)");
  const row = page.locator(`[data-request-id="${id}"]`);
  await row
    .getByRole(javaScriptEnabled ? "button" : "link", { name: `Details zu ${name}` })
    .click();
  if (javaScriptEnabled) await row.getByRole("tab", { name: "Anfrage" }).click();
  const inRow = row.locator("[data-voice-transcript]");
  await expect(inRow.getByText(TRANSCRIPT)).toBeVisible();
  // The tab's headings follow the page's h1 without a gap (axe heading-order, newcomer walk).
  await axeClean(page, javaScriptEnabled);

  // The full-screen view: the transcript under the player.
  await page.goto(`/admin/requests?requestId=${id}`);
  const view = page.locator("[data-fullscreen]");
  const transcript = view.locator("[data-voice-transcript]");
  await transcript.getByText(TRANSCRIPT).scrollIntoViewIfNeeded();
  await expect(transcript.getByText(TRANSCRIPT)).toBeInViewport();
  await axeClean(page, javaScriptEnabled);
  await page.screenshot({ path: testInfo.outputPath("transcript.png") });

  const calls = currentStack().transcription.calls.length;
  await transcript.getByRole("button", { name: "Erneut transkribieren" }).click();
  await expect(
    page
      .locator('[aria-live="polite"]')
      .getByText("Die Sprachnachricht wird erneut transkribiert."),
  ).toBeVisible();
  // The button is gone while it runs: the transcript block is in view (without JS the answer
  // lands on it) and, with JS, its state line has the focus instead of <body>.
  await expect(transcript.getByRole("heading", { name: "Transkript" })).toBeInViewport();
  if (javaScriptEnabled) {
    await expect
      .poll(() =>
        page.evaluate(() => Boolean(document.activeElement?.closest("[data-voice-transcript]"))),
      )
      .toBe(true);
  }
  await page.screenshot({ path: testInfo.outputPath("retranscribe.png") });
  await expect.poll(() => currentStack().transcription.calls.length).toBe(calls + 1);
  await expect.poll(() => adminExtras(id)?.voiceTranscriptStatus).toBe("done");
});

test("an admin writes to the lead from the full-screen view; the thread stays with the request", async ({
  page,
  javaScriptEnabled,
  seed,
}, testInfo) => {
  const m = Math.random().toString(16).slice(2, 10);
  const lead = `lead-${m}@example.com`;
  const id = await seed.request({ name: `Kundin ${m}`, email: lead });
  const admin = await seed.admin();
  await signIn(page, admin, { to: `/admin/requests?requestId=${id}` });
  if (javaScriptEnabled) await waitForHydration(page);
  const section = page.getByRole("region", { name: "Nachricht an den Kunden" });
  await expect(section.getByText("Noch keine Nachrichten an den Kunden.")).toBeVisible();
  await section.getByLabel("Betreff").fill(`Rückfrage ${m}`);
  await section.getByLabel("Nachricht", { exact: true }).fill("Wie viele Standorte habt ihr?");
  await section.getByRole("button", { name: "Nachricht senden" }).scrollIntoViewIfNeeded();
  await axeClean(page, javaScriptEnabled);
  await section.getByRole("button", { name: "Nachricht senden" }).click();

  await expect(
    page.locator('[aria-live="polite"]').getByText("Nachricht an den Kunden gesendet."),
  ).toBeVisible();
  const thread = page.getByRole("list", { name: "Nachrichten an den Kunden" });
  await expect(thread.getByText(`Rückfrage ${m}`)).toBeVisible();
  await expect(thread.getByText("Wie viele Standorte habt ihr?")).toBeVisible();
  // The form is empty again for the next message.
  await expect(section.getByLabel("Betreff")).toHaveValue("");
  // Where the admin is: with JS a line by the form has the focus; without JS the answer lands on
  // the thread (not at the top of the view).
  if (javaScriptEnabled) {
    const note = section.locator("[data-message-sent]");
    await expect(note).toBeFocused();
    await expect(note).toBeInViewport();
  } else {
    await expect(thread.getByText(`Rückfrage ${m}`)).toBeInViewport();
  }
  await page.screenshot({ path: testInfo.outputPath("message-sent.png") });

  const mail = await waitForMail(lead, new RegExp(`Rückfrage ${m}`));
  expect(mail.to).toEqual([lead]);
  expect(mail.replyTo).toEqual([admin.email]);
  expect(mail.text).toContain("Wie viele Standorte habt ihr?");
  // Sent by the outbox: the thread says so after a reload.
  await expect.poll(() => adminExtras(id)?.messages[0]?.status).toBe("sent");
  // With JS the thread follows the outbox while a message is queued (no reload needed).
  if (javaScriptEnabled) {
    await expect(
      thread.locator("[data-message-id]").getByText("Gesendet", { exact: true }),
    ).toBeVisible();
  }
  await page.reload();
  // With JS the page restores its scroll position once hydrated: scroll after that.
  if (javaScriptEnabled) await waitForHydration(page);
  const sent = page.locator(`[data-message-id]`).filter({ hasText: `Rückfrage ${m}` });
  await sent.scrollIntoViewIfNeeded();
  await expect(sent.getByText("Gesendet", { exact: true })).toBeInViewport();
  await page.screenshot({ path: testInfo.outputPath("messages.png") });
});

// The answer to the last post only (ADR 361): a refused message, then a sent one — the refusal's
// error and draft do not come back into the emptied form beside "gesendet" (they did: the section
// read the fetcher's data, which a redirect leaves as it was).
test("a refused message does not come back once the next one is sent @js-only", async ({
  page,
  seed,
}) => {
  const m = Math.random().toString(16).slice(2, 10);
  const id = await seed.request({ name: `Kunde ${m}`, email: `lead2-${m}@example.com` });
  await signIn(page, await seed.admin(), { to: `/admin/requests?requestId=${id}` });
  await waitForHydration(page);
  const section = page.getByRole("region", { name: "Nachricht an den Kunden" });
  const subject = section.getByLabel("Betreff");
  const body = section.getByLabel("Nachricht", { exact: true });
  const send = section.getByRole("button", { name: "Nachricht senden" });
  // Only blanks: the browser's `required` lets it through, the server refuses it.
  await subject.fill(`Termin ${m}`);
  await body.fill("   ");
  await send.click();
  const refused = section.getByText("Bitte schreiben Sie eine Nachricht.").first();
  await expect(refused).toBeVisible();
  await expect(body).toHaveAttribute("aria-invalid", "true");
  await expect(subject).toHaveValue(`Termin ${m}`);

  await body.fill("Passt euch Dienstag um 10 Uhr?");
  await send.click();
  const sent = section.locator("[data-message-sent]");
  await expect(sent).toBeFocused();
  await expect(
    page.getByRole("list", { name: "Nachrichten an den Kunden" }).getByText(`Termin ${m}`),
  ).toBeVisible();
  await expect(section.getByText("Bitte schreiben Sie eine Nachricht.")).toHaveCount(0);
  await expect(subject).toHaveValue("");
  await expect(body).not.toHaveAttribute("aria-invalid", "true");
});
