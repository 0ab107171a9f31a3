// The embedded defaults (ADR 272): without TRANSCRIPTION_API_URL nothing leaves the machine —
// a recording's status is `off`, the job calls nothing, a retry is refused, the privacy note says
// nothing of it; without SMTP_URL a message to the lead is refused with a German 409.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { solvedAltcha } from "../altcha-solution";
import { startTranscriptionStandIn, type TranscriptionStandIn } from "../transcription-stand-in";
import { multipart, validFields, webmBytes } from "./landing-fixtures";
import { startTestServer, type TestServer } from "./server";

let server: TestServer;
let standIn: TranscriptionStandIn;
let token: string;

beforeAll(async () => {
  // Running, but not configured: it must never be called.
  standIn = await startTranscriptionStandIn();
  server = await startTestServer({ TRANSCRIPTION_API_URL: undefined, SMTP_URL: undefined });
  token = await server.adminToken();
});
afterAll(async () => {
  await server.close();
  await standIn.close();
});

async function submitWithAudio() {
  const res = await server.fetch("/api/requests", {
    method: "POST",
    body: multipart(validFields({ altcha: await solvedAltcha(server.url) }), [
      { field: "audio", name: "aufnahme.webm", bytes: webmBytes(), type: "audio/webm" },
    ]),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: number };
}

describe("transcription off (default)", () => {
  it("marks recordings off, makes zero calls and refuses a retry", async () => {
    const created = await submitWithAudio();
    expect(await server.testHooks.drainTranscriptions()).toBe(0);
    expect(standIn.calls).toHaveLength(0);
    const json = await (await server.fetch(`/api/admin/requests/${created.id}`, { token })).json();
    expect(json).toMatchObject({ voiceTranscript: null, voiceTranscriptStatus: "off" });
    const retry = await server.fetch(`/api/admin/requests/${created.id}/transcription`, {
      method: "POST",
      token,
    });
    expect(retry.status).toBe(409);
    expect((await retry.json()).message).toMatch(/nicht eingerichtet/);
    expect(await server.testHooks.drainTranscriptions()).toBe(0);
    expect(standIn.calls).toHaveLength(0);
    const html = await (await server.fetch("/")).text();
    expect(html).not.toContain("Verschriftlichung");
  });
});

describe("messages without SMTP", () => {
  it("answers 409 with a German message and stores nothing", async () => {
    const created = await submitWithAudio();
    const res = await server.fetch(`/api/admin/requests/${created.id}/messages`, {
      method: "POST",
      token,
      json: { subject: "Hallo", body: "Text" },
    });
    expect(res.status).toBe(409);
    expect((await res.json()).message).toMatch(/Ohne Mailserver/);
    const json = await (await server.fetch(`/api/admin/requests/${created.id}`, { token })).json();
    expect(json.messages).toEqual([]);
  });
});
