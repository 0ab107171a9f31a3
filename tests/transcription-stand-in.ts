import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export type TranscriptionCall = {
  authorization: string | null;
  model: string | null;
  language: string | null;
  filename: string | null;
  /** The uploaded audio, byte for byte. */
  audio: Buffer;
};

/**
 * A loopback stand-in for an OpenAI-compatible speech-to-text API (ADR 272): answers
 * `POST …/v1/audio/transcriptions` (multipart: file, model, language) with `{ "text": … }` and
 * records every call. `down(true)` answers 503 instead (retries); integration tests use port 0,
 * the e2e stack a fixed port.
 */
export async function startTranscriptionStandIn(
  options: { port?: number; text?: (call: TranscriptionCall) => string } = {},
) {
  const calls: TranscriptionCall[] = [];
  let isDown = false;
  let answer = options.text ?? (() => "Wir brauchen eine App für Vorbestellungen.");
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      res.setHeader("content-type", "application/json");
      if (req.method !== "POST" || !req.url?.endsWith("/v1/audio/transcriptions")) {
        res.statusCode = 404;
        res.end(JSON.stringify({ error: { message: "not found" } }));
        return;
      }
      try {
        const form = await new Response(Buffer.concat(chunks), {
          headers: { "content-type": String(req.headers["content-type"] ?? "") },
        }).formData();
        const file = form.get("file");
        const call: TranscriptionCall = {
          authorization: req.headers.authorization ?? null,
          model: form.get("model")?.toString() ?? null,
          language: form.get("language")?.toString() ?? null,
          filename: file instanceof File ? file.name : null,
          audio: file instanceof File ? Buffer.from(await file.arrayBuffer()) : Buffer.alloc(0),
        };
        calls.push(call);
        if (isDown) {
          res.statusCode = 503;
          res.end(JSON.stringify({ error: { message: "overloaded" } }));
          return;
        }
        res.end(JSON.stringify({ text: answer(call) }));
      } catch {
        res.statusCode = 400;
        res.end(JSON.stringify({ error: { message: "bad multipart" } }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    /** The base URL as TRANSCRIPTION_API_URL takes it. */
    url: `http://127.0.0.1:${port}/v1`,
    calls,
    down(value: boolean) {
      isDown = value;
    },
    setText(next: (call: TranscriptionCall) => string) {
      answer = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
export type TranscriptionStandIn = Awaited<ReturnType<typeof startTranscriptionStandIn>>;
