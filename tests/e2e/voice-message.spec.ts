import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { waitForHydration } from "./hydration";
import { findRequestByEmail } from "./seed";

// Chromium with a fake microphone (a beep) for the recorder (other flags as in playwright.config.ts).
test.use({
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--use-fake-device-for-media-stream",
      "--use-fake-ui-for-media-stream",
    ],
  },
});

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
  await expect(page.getByTestId("recorder-timer")).toHaveText("2 s", { timeout: 5000 });
  await expect(page.getByTestId("recorder-remaining")).toHaveText("(noch 4:58)");
  await page.getByRole("button", { name: "Aufnahme stoppen" }).click();

  // One playback control: the button; the audio element shows no second player.
  await expect(recorder.getByRole("button", { name: "Abspielen" })).toHaveCount(1);
  const preview = recorder.locator("audio");
  await expect(preview).not.toHaveAttribute("controls");
  await expect(preview).toBeHidden();
  await expect(page.getByTestId("recorder-duration")).toHaveText(/^[23] s$/);
  const previewDuration = await mediaDuration(page, (await preview.getAttribute("src")) ?? "");
  expect(previewDuration).toBeGreaterThan(1.5);
  expect(previewDuration).toBeLessThan(4);
  await recorder.getByRole("button", { name: "Abspielen" }).click();
  await expect(recorder.getByRole("button", { name: "Pausieren" })).toBeVisible();
  await expect(page.getByTestId("recorder-duration")).toHaveText(/^\d s \/ [23] s$/);
  await recorder.getByRole("button", { name: "Pausieren" }).click();
  await expect(recorder.getByRole("button", { name: "Abspielen" })).toBeVisible();

  await page.getByRole("button", { name: "Anfrage senden" }).click();
  await expect(page.getByTestId("submission-success")).toContainText(`Vielen Dank, ${name}!`);
  const row = findRequestByEmail(email);
  expect(row?.audioPath).toMatch(/\.webm$/);

  // The stored file has its duration (the visitor's history and the admin player load this file).
  const stored = await mediaDuration(page, `/api/audio/${row!.audioPath}`);
  expect(stored).toBeGreaterThan(1.5);
  expect(stored).toBeLessThan(4);

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
    .toBeGreaterThan(1.5);
  expect(await player.evaluate((a: HTMLAudioElement) => a.duration)).toBeLessThan(4);
});

test("the recorder stops by itself at the maximum length (JS)", async ({
  page,
  javaScriptEnabled,
}) => {
  test.skip(!javaScriptEnabled, "the recorder needs JS (no-JS: the audio file input)");
  await page.clock.install();
  await open(page, javaScriptEnabled);
  await page.getByRole("button", { name: "Sprachnachricht aufnehmen" }).click();
  const recorder = page.getByTestId("recorder");
  await expect(recorder.getByText("Aufnahme läuft")).toBeVisible();
  await expect(page.getByTestId("recorder-remaining")).toHaveText("(noch 5:00)");
  // Let real audio arrive (MediaRecorder runs on real time), then jump to just before the limit.
  await expect
    .poll(() => recorder.getByTestId("recorder-level").evaluate((m: HTMLMeterElement) => m.value))
    .toBeGreaterThan(0);
  await page.clock.runFor(299_000);
  await expect(page.getByTestId("recorder-timer")).toHaveText("299 s");
  await expect(page.getByTestId("recorder-remaining")).toHaveText("(noch 0:01)");
  await page.clock.runFor(1_000);
  await expect(recorder.getByRole("button", { name: "Abspielen" })).toBeVisible();
  await expect(recorder.getByText("Aufnahme läuft")).toHaveCount(0);
  await expect(page.getByTestId("recorder-duration")).toHaveText("300 s");
});

test("with reduced motion the level meter still reads the input, once a second (JS)", async ({
  page,
  javaScriptEnabled,
}) => {
  test.skip(!javaScriptEnabled, "the recorder needs JS");
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
