// A full disk loses nothing (ADR 096): below DISK_MIN_FREE_MB the text is saved and files are refused.
// The threshold is set far above any real free space, so the real free-space reading is "too low".
import { readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { multipart, pdfBytes, validFields, webmBytes } from "./landing-fixtures";
import { startTestServer, type TestServer } from "./server";

const REFUSED =
  "Deine Anfrage ist gespeichert, aber deine Dateien und Sprachaufnahmen konnten wir gerade nicht annehmen, weil unser Speicher fast voll ist. Bitte schicke sie uns später noch einmal.";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    DISK_MIN_FREE_MB: String(1024 * 1024 * 1024),
    SUBMISSION_RATE_LIMIT: "100/1h",
  });
});
afterAll(async () => {
  await server.close();
  delete process.env.DISK_MIN_FREE_MB;
  delete process.env.SUBMISSION_RATE_LIMIT;
});

/** Every file below UPLOADS_DIR (stored files and parts being received). */
function filesOnDisk(): string[] {
  try {
    return readdirSync(path.resolve(process.env.UPLOADS_DIR as string), {
      recursive: true,
      withFileTypes: true,
    })
      .filter((e) => e.isFile())
      .map((e) => e.name);
  } catch {
    return [];
  }
}

describe("submissions while the disk is almost full", () => {
  it("saves the text, refuses attachments and recording with a clear message (API)", async () => {
    const fields = validFields({ name: "Volle Platte" });
    const res = await server.fetch("/api/requests", {
      method: "POST",
      body: multipart(fields, [
        { name: "angebot.pdf", bytes: pdfBytes(4096), type: "application/pdf" },
        { field: "audio", name: "aufnahme.webm", bytes: webmBytes(), type: "audio/webm" },
      ]),
    });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.uploadWarning).toBe(REFUSED);
    expect(body).toMatchObject({ name: "Volle Platte", email: fields.email, attachments: [] });
    expect(body.audioPath).toBeNull();
    expect(filesOnDisk()).toEqual([]);

    // The JS form revalidates after success: with the cookies of the answer, the page shows it.
    const cookies = res.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const page = await (await server.fetch("/", { headers: { cookie: cookies } })).text();
    expect(page).toContain("weil unser Speicher fast voll ist");
  });

  it("shows the message after the no-JS form's redirect, and the request is saved", async () => {
    const res = await server.fetch("/?index", {
      method: "POST",
      body: multipart(validFields({ name: "Ohne Skript" }), [
        { name: "skizze.pdf", bytes: pdfBytes(), type: "application/pdf" },
      ]),
    });
    expect(res.status).toBe(303);
    const cookies = res.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const page = await (
      await server.fetch(res.headers.get("location") as string, { headers: { cookie: cookies } })
    ).text();
    expect(page).toContain("ist bei uns eingegangen");
    expect(page).toContain("weil unser Speicher fast voll ist");
    expect(filesOnDisk()).toEqual([]);
  });

  it("does not warn when no file was sent", async () => {
    const res = await server.fetch("/api/requests", {
      method: "POST",
      body: multipart(validFields()),
    });
    expect(res.status).toBe(201);
    expect((await res.json()).uploadWarning).toBeUndefined();
  });
});
