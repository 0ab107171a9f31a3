// Notes, follow-ups and "Meine Aufgaben" (ADRs 350, 351), with and without JavaScript at 390 × 844
// and 1280 × 800: in a request's full-screen view an admin's note that mentions an unknown admin is
// refused at its field (the draft kept, the field focused); a note that mentions a colleague lands
// in the list of notes and the colleague is told by mail; a follow-up set for a day shows in the
// section; the dashboard's card "Meine Aufgaben" counts it and leads to /admin/aufgaben, where it
// stands under "Heute" and "Erledigt" takes it off the list.
import type { Locator, Page } from "@playwright/test";
import { berlinToday } from "~/lib/booking-calendar";
import { formatRequestId } from "~/lib/format";
import { NOTE_MESSAGES } from "~/lib/request-notes";
import { signIn } from "./auth";
import { expect, test, waitForMail } from "./fixtures";
import { waitForHydration } from "./hydration";

test.describe.configure({ timeout: 180_000 });

const SIZES = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 800 },
] as const;

async function open(page: Page, url: string, javaScriptEnabled: boolean) {
  await page.goto(url);
  if (javaScriptEnabled) await waitForHydration(page);
}

/** Seen: scrolled to if need be, then inside the window. */
async function seen(locator: Locator) {
  await locator.scrollIntoViewIfNeeded();
  await expect(locator).toBeInViewport();
}

const toast = (page: Page, text: string) =>
  page.locator('[aria-live="polite"]').getByText(text, { exact: false });

for (const size of SIZES) {
  test(`an admin writes a note with a mention, sets a follow-up and finishes it under "Meine Aufgaben" (${size.name})`, async ({
    page,
    javaScriptEnabled,
    seed,
  }, testInfo) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    const m = Math.random().toString(16).slice(2, 8);
    const name = `Nora Notiz ${m}`;
    const id = await seed.request({ name, email: `notes-${m}@example.com` });
    const colleague = await seed.admin({ username: `kollegin-${m}` });
    const admin = await seed.admin();
    await signIn(page, admin, { to: `/admin/requests?requestId=${id}` });
    if (javaScriptEnabled) await waitForHydration(page);

    const view = page.locator("[data-fullscreen]");
    const notes = view.getByRole("region", { name: "Notizen" });
    const form = notes.getByRole("form", { name: "Neue Notiz" });
    const field = form.getByLabel("Notiz", { exact: true });
    await seen(field);
    await expect(notes.getByText("Noch keine Notizen.")).toBeVisible();
    // The hint names the colleague as one to mention.
    await expect(field).toHaveAccessibleDescription(new RegExp(`@${colleague.username}`));

    // A mention of an unknown admin: refused at the field, the draft kept, the field focused.
    const unknown = `niemand-${m}`;
    const draft = `Bitte @${unknown} ansehen.`;
    await field.fill(draft);
    await form.getByRole("button", { name: "Notiz speichern" }).click();
    const message = NOTE_MESSAGES.unknownMention([unknown]);
    const refused = form.getByText(message);
    await expect(refused).toBeVisible();
    await expect(field).toHaveAttribute("aria-invalid", "true");
    await expect(field).toHaveAccessibleDescription(
      new RegExp(`@${unknown} ist kein aktiver Admin`),
    );
    await expect(field).toHaveValue(draft);
    if (javaScriptEnabled) {
      await expect(field).toBeFocused();
    } else {
      // The page comes back at "#notizen" (the form's action), where Chromium skips autofocus:
      // the field and its message are in the window without scrolling.
      await expect(page).toHaveURL(/#notizen$/);
      await expect(field).toBeInViewport();
    }
    await expect(refused).toBeInViewport();
    await page.screenshot({ path: testInfo.outputPath(`note-refused-${size.name}.png`) });
    await expect(notes.getByText("Noch keine Notizen.")).toBeVisible();

    // The note with the colleague's name: in the list, the colleague told.
    const body = `Rückruf vereinbart, @${colleague.username} übernimmt das Angebot ${m}.`;
    await field.fill(body);
    await form.getByRole("button", { name: "Notiz speichern" }).click();
    if (javaScriptEnabled) {
      await expect(form.locator("[data-note-saved]")).toBeFocused();
    } else {
      await expect(toast(page, `Benachrichtigt: @${colleague.username}.`)).toBeVisible();
    }
    const list = notes.getByRole("list", { name: "Notizen" });
    const item = list.getByRole("listitem").filter({ hasText: body });
    await expect(item).toHaveCount(1);
    await expect(item).toContainText(admin.username);
    await seen(item);
    await expect(notes.getByText("Noch keine Notizen.")).toHaveCount(0);
    // The form is empty again for the next note.
    await expect(
      notes.getByRole("form", { name: "Neue Notiz" }).getByLabel("Notiz", { exact: true }),
    ).toHaveValue("");
    await page.screenshot({ path: testInfo.outputPath(`note-saved-${size.name}.png`) });
    const mail = await waitForMail(
      colleague.email,
      new RegExp(
        `${admin.username} hat Sie in einer Notiz zu Anfrage #${formatRequestId(id)} erwähnt`,
      ),
    );
    // Who and where, never the note's text (ADR 350).
    expect(mail.text).not.toContain(body);

    // The follow-up for a day (today, Berlin): shown in the section.
    const today = berlinToday();
    const followUp = notes.getByRole("form", { name: "Wiedervorlage" });
    await expect(notes.getByText("Keine Wiedervorlage gesetzt.")).toBeVisible();
    await followUp.getByLabel("Hinweis (optional)").fill(`Angebot nachfassen ${m}`);
    await followUp.getByLabel("Oder am").fill(today);
    await followUp.getByRole("button", { name: "Setzen", exact: true }).click();
    const [y, mo, d] = today.split("-");
    if (javaScriptEnabled) {
      await expect(followUp.locator("[data-follow-up-saved]")).toBeFocused();
    } else {
      await expect(toast(page, `Wiedervorlage für ${d}.${mo}.${y} gesetzt.`)).toBeVisible();
    }
    const set = notes.locator("[data-follow-up-open]");
    await expect(set).toContainText(/Fällig heute/);
    await expect(set).toContainText(`Angebot nachfassen ${m}`);
    await expect(set).toContainText(`Aufgabe von ${admin.username}`);
    await seen(set);
    await page.screenshot({ path: testInfo.outputPath(`follow-up-set-${size.name}.png`) });

    // The dashboard's card counts it and leads to "Meine Aufgaben".
    await open(page, "/admin/dashboard", javaScriptEnabled);
    const card = page.getByRole("region", { name: "Meine Aufgaben" });
    await seen(card);
    await expect(card.locator("dl")).toHaveText(/^Überfällig\s*0\s*Heute\s*1\s*Diese Woche\s*0$/);
    await page.screenshot({ path: testInfo.outputPath(`dashboard-tasks-${size.name}.png`) });
    await card.getByRole("link", { name: "Aufgaben öffnen" }).click();
    await expect(page).toHaveURL(/\/admin\/aufgaben$/);
    if (javaScriptEnabled) await waitForHydration(page);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Meine Aufgaben");
    const bucket = page.getByRole("region", { name: "Heute (1)" });
    const task = bucket.getByRole("listitem").filter({ hasText: name });
    await seen(task);
    await expect(task.getByRole("link", { name: `#${formatRequestId(id)} ${name}` })).toBeVisible();
    await expect(task).toContainText(`Angebot nachfassen ${m}`);
    await page.screenshot({ path: testInfo.outputPath(`tasks-${size.name}.png`) });

    // "Erledigt": off the list, and said so.
    await task.getByRole("button", { name: `Erledigt: #${formatRequestId(id)} ${name}` }).click();
    if (javaScriptEnabled) {
      const done = page.locator("[data-task-done]");
      await expect(done).toHaveText("Wiedervorlage erledigt.");
      await expect(done).toBeFocused();
      await expect(done).toBeInViewport();
    } else {
      await expect(toast(page, "Wiedervorlage erledigt.")).toBeVisible();
    }
    await expect(page.getByText(name)).toHaveCount(0);
    await expect(page.getByText("Keine offenen Wiedervorlagen.")).toBeInViewport();
    await page.screenshot({ path: testInfo.outputPath(`tasks-done-${size.name}.png`) });
  });
}

// A slow phone (ADR 361): React Router hands a fetcher's answer over at once but its new state in a
// transition, and on a slow CPU a render in between saw "submitting" beside the answer. The
// refusal then counted as the old data: the form said "Notiz gespeichert." over the refused draft
// (7 of 12 runs at 8x throttling before the fix). Both answers, refused and saved, at that speed.
test("on a slow phone a refused note shows its refusal, and a saved one its line @js-only", async ({
  page,
  seed,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const m = Math.random().toString(16).slice(2, 8);
  const id = await seed.request({ name: `Sven Langsam ${m}`, email: `slow-${m}@example.com` });
  const admin = await seed.admin();
  await signIn(page, admin, { to: `/admin/requests?requestId=${id}` });
  await waitForHydration(page);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 8 });

  const notes = page.locator("[data-fullscreen]").getByRole("region", { name: "Notizen" });
  const form = notes.getByRole("form", { name: "Neue Notiz" });
  const field = form.getByLabel("Notiz", { exact: true });
  const saved = form.locator("[data-note-saved]");
  const unknown = `niemand-${m}`;
  await field.fill(`Bitte @${unknown} ansehen.`);
  await form.getByRole("button", { name: "Notiz speichern" }).click();
  const refused = form.getByText(NOTE_MESSAGES.unknownMention([unknown]));
  await expect(refused).toBeVisible();
  await expect(field).toBeFocused();
  await expect(saved).toHaveCount(0);
  await expect(notes.getByText("Noch keine Notizen.")).toBeVisible();

  const body = `Angebot bis Freitag ${m}.`;
  await field.fill(body);
  await form.getByRole("button", { name: "Notiz speichern" }).click();
  await expect(saved).toBeFocused();
  const item = notes.getByRole("list", { name: "Notizen" }).getByRole("listitem");
  await expect(item.filter({ hasText: body })).toHaveCount(1);
  // The refusal before it does not come back into the emptied form.
  await expect(refused).toHaveCount(0);
  await expect(field).toHaveValue("");
});
