import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { waitForHydration } from "./hydration";
import { findRequestByEmail } from "./seed";

const unique = () => Math.random().toString(36).slice(2, 8);

async function open(page: Page, javaScriptEnabled: boolean) {
  await page.goto("/");
  await page.getByRole("button", { name: "Nur notwendige" }).click();
  if (javaScriptEnabled) await waitForHydration(page);
}

/** The duration a fresh audio element reads from a file's metadata (Infinity when it has none). */
function mediaDuration(page: Page, src: string) {
  return page.evaluate(
    (url) =>
      new Promise<number>((resolve, reject) => {
        const audio = new Audio();
        audio.preload = "metadata";
        audio.onloadedmetadata = () => resolve(audio.duration);
        audio.onerror = () => reject(new Error(`cannot load ${url}`));
        audio.src = url;
      }),
    src,
  );
}

test("a recording carries its real duration into every player; one playback control", async ({
  page,
  loginAsNew,
  javaScriptEnabled,
}) => {
  await open(page, javaScriptEnabled);
  if (!javaScriptEnabled) {
    // Without JS: an audio file input styled like the attachment input.
    const audio = page.getByLabel("Sprachnachricht (optional)");
    await expect(audio).toHaveAttribute("type", "file");
    await expect(audio).toHaveAttribute("accept", "audio/*");
    const attachments = page.getByLabel("Dateien anhängen (optional)");
    expect(await audio.getAttribute("class")).toBe(await attachments.getAttribute("class"));
    return;
  }
  const name = `Vera ${unique()}`;
  const email = `vera.${unique()}@example.com`;
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("E-Mail").fill(email);
  await page.getByLabel("Telefon").fill("+49 30 1234567");
  await page.getByLabel("Beschreibe dein Unternehmen").fill("Ein Architekturbüro mit acht Leuten.");

  await page.getByRole("button", { name: "Sprachnachricht aufnehmen" }).click();
  const recorder = page.getByTestId("recorder");
  await expect(recorder.getByText("Aufnahme läuft")).toBeVisible();
  // The level meter moves with the (fake) microphone's beep.
  await expect
    .poll(() => recorder.getByTestId("recorder-level").evaluate((m: HTMLMeterElement) => m.value))
    .toBeGreaterThan(0);
  // At least two seconds (exact ticks can be missed on a busy machine), timer and remaining agree.
  await expect(page.getByTestId("recorder-timer")).toHaveText(/^([2-9]|\d{2,}) s$/, {
    timeout: 10_000,
  });
  const shown = await recorder.evaluate((el) => ({
    timer: el.querySelector("[data-testid=recorder-timer]")?.textContent ?? "",
    remaining: el.querySelector("[data-testid=recorder-remaining]")?.textContent ?? "",
  }));
  const elapsed = Number.parseInt(shown.timer, 10);
  const left = 300 - elapsed;
  expect(shown.remaining).toBe(
    `(noch ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")})`,
  );
  await page.getByRole("button", { name: "Aufnahme stoppen" }).click();

  // One playback control: the button; the audio element shows no second player.
  await expect(recorder.getByRole("button", { name: "Abspielen" })).toHaveCount(1);
  const preview = recorder.locator("audio");
  await expect(preview).not.toHaveAttribute("controls");
  await expect(preview).toBeHidden();
  await expect(page.getByTestId("recorder-duration")).toHaveText(/^\d+ s$/);
  const seconds = Number.parseInt(
    (await page.getByTestId("recorder-duration").textContent()) ?? "",
    10,
  );
  expect(seconds).toBeGreaterThanOrEqual(2);
  /** A player's duration matches the recording (MediaRecorder's own file says Infinity). */
  const matchesRecording = (duration: number) => {
    expect(duration).toBeGreaterThan(seconds - 1.5);
    expect(duration).toBeLessThan(seconds + 1.5);
  };
  matchesRecording(await mediaDuration(page, (await preview.getAttribute("src")) ?? ""));
  await recorder.getByRole("button", { name: "Abspielen" }).click();
  await expect(recorder.getByRole("button", { name: "Pausieren" })).toBeVisible();
  await expect(page.getByTestId("recorder-duration")).toHaveText(
    new RegExp(`^\\d+ s / ${seconds} s$`),
  );
  await recorder.getByRole("button", { name: "Pausieren" }).click();
  await expect(recorder.getByRole("button", { name: "Abspielen" })).toBeVisible();

  await page.getByRole("button", { name: "Anfrage senden" }).click();
  await expect(page.getByTestId("submission-success")).toContainText(`Vielen Dank, ${name}!`);
  const row = findRequestByEmail(email);
  expect(row?.audioPath).toMatch(/\.webm$/);

  // The stored file has its duration (the visitor's history and the admin player load this file).
  matchesRecording(await mediaDuration(page, `/api/audio/${row!.audioPath}`));

  // The history's player loads the metadata, so it shows the duration before playback.
  await page.reload();
  const id = `#${String(row!.id).padStart(4, "0")}`;
  const item = page.locator("#history").getByTestId("history-row").filter({ hasText: id });
  await item.locator("summary").first().click();
  const player = item.locator("audio");
  await expect(player).toHaveAttribute("controls", "");
  await expect(player).toHaveAttribute("preload", "metadata");
  await expect
    .poll(() => player.evaluate((a: HTMLAudioElement) => a.duration))
    .toBeGreaterThan(seconds - 1.5);
  matchesRecording(await player.evaluate((a: HTMLAudioElement) => a.duration));

  // The admin's player in the request's full-screen view, too.
  await loginAsNew(page);
  await page.goto(`/admin/requests?requestId=${row!.id}`);
  const adminPlayer = page.getByRole("dialog", { name }).locator("audio");
  await expect(adminPlayer).toHaveAttribute("preload", "metadata");
  await expect
    .poll(() => adminPlayer.evaluate((a: HTMLAudioElement) => a.duration))
    .toBeGreaterThan(seconds - 1.5);
  matchesRecording(await adminPlayer.evaluate((a: HTMLAudioElement) => a.duration));
});

// The recorder needs JS (no-JS: the audio file input).
test("the recorder stops by itself at the maximum length (JS)", { tag: "@js-only" }, async ({
  page,
  javaScriptEnabled,
}) => {
  await page.clock.install();
  await open(page, javaScriptEnabled);
  await page.getByRole("button", { name: "Sprachnachricht aufnehmen" }).click();
  const recorder = page.getByTestId("recorder");
  await expect(recorder.getByText("Aufnahme läuft")).toBeVisible();
  // The fake clock still flows with real time until it is run forward: about five minutes left.
  await expect(page.getByTestId("recorder-remaining")).toHaveText(/^\(noch [45]:\d\d\)$/);
  // Let real audio arrive (MediaRecorder runs on real time), then run the timer past the limit.
  await expect
    .poll(() => recorder.getByTestId("recorder-level").evaluate((m: HTMLMeterElement) => m.value))
    .toBeGreaterThan(0);
  await page.clock.runFor(300_000);
  await expect(recorder.getByRole("button", { name: "Abspielen" })).toBeVisible();
  await expect(recorder.getByText("Aufnahme läuft")).toHaveCount(0);
  await expect(page.getByTestId("recorder-timer")).toHaveCount(0);
  // Stopped at the limit: the measured length is five minutes (plus the moment until the stop).
  await expect(page.getByTestId("recorder-duration")).toHaveText(/^30[01] s$/);
});

test("with reduced motion the level meter still reads the input, once a second (JS)", {
  tag: "@js-only",
}, async ({ page, javaScriptEnabled }) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await open(page, javaScriptEnabled);
  await page.getByRole("button", { name: "Sprachnachricht aufnehmen" }).click();
  const recorder = page.getByTestId("recorder");
  await expect(recorder.getByText("Aufnahme läuft")).toBeVisible();
  const dot = recorder.locator("span[aria-hidden=true].rounded-full");
  await expect(dot).toHaveCSS("animation-name", "none");
  await expect
    .poll(() => recorder.getByTestId("recorder-level").evaluate((m: HTMLMeterElement) => m.value))
    .toBeGreaterThan(0);
  await page.getByRole("button", { name: "Aufnahme stoppen" }).click();
});
