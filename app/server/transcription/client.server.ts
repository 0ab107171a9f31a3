import { randomBytes } from "node:crypto";
import { env } from "../platform/env.server";

/**
 * The one client of an OpenAI-compatible speech-to-text service (ADR 272):
 * `POST {TRANSCRIPTION_API_URL}/audio/transcriptions` with the recording as multipart form data
 * (`file`, `model`, `language=de`, `response_format=json`), answered `{ "text": … }`. OpenAI
 * itself, faster-whisper-server, speaches and LocalAI speak it. The recording is streamed from
 * storage into the request body, never held in memory as a whole.
 */

/** Whole call (connect, upload, answer). */
export const TRANSCRIPTION_TIMEOUT_MS = 120_000;
/** The answer is read up to this many bytes; a longer one fails the attempt. */
export const TRANSCRIPTION_RESPONSE_CAP = 256 * 1024;
/** A transcript is kept up to this many characters. */
export const TRANSCRIPT_MAX_CHARS = 50_000;
export const TRANSCRIPTION_LANGUAGE = "de";

export const transcriptionConfigured = () => Boolean(env().TRANSCRIPTION_API_URL);

/** The processor as the privacy note names it: the host of TRANSCRIPTION_API_URL. */
export function transcriptionProcessor(): string | null {
  const url = env().TRANSCRIPTION_API_URL;
  if (!url) return null;
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}

/** A failed attempt, worded for the admin (no personal data). */
export class TranscriptionError extends Error {
  override name = "TranscriptionError";
}

export type Recording = { stream: () => ReadableStream<Uint8Array>; size: number; type: string };

/** Multipart head and tail around the streamed file; the length is known without reading it. */
function multipart(recording: Recording, fields: Record<string, string>, filename: string) {
  const boundary = `----anfrage${randomBytes(12).toString("hex")}`;
  const encoder = new TextEncoder();
  const head = encoder.encode(
    `${Object.entries(fields)
      .map(
        ([name, value]) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      )
      .join(
        "",
      )}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${recording.type}\r\n\r\n`,
  );
  const tail = encoder.encode(`\r\n--${boundary}--\r\n`);
  const file = recording.stream();
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  // One chunk per pull: the socket's pace sets the reading pace (at most one chunk waits here).
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(head);
    },
    async pull(controller) {
      reader ??= file.getReader();
      const { done, value } = await reader.read();
      if (done) {
        controller.enqueue(tail);
        controller.close();
      } else controller.enqueue(value);
    },
    cancel(reason) {
      return reader ? reader.cancel(reason) : file.cancel(reason);
    },
  });
  return {
    body,
    contentType: `multipart/form-data; boundary=${boundary}`,
    length: head.byteLength + recording.size + tail.byteLength,
  };
}

/** Reads at most `cap` bytes of the answer; more fails. */
async function readCapped(response: Response, cap: number): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > cap) {
      await reader.cancel();
      throw new TranscriptionError("Die Antwort des Transkriptionsdienstes ist zu groß.");
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Sends one recording; resolves with its text (trimmed, capped). */
export async function transcribe(recording: Recording, extension: string): Promise<string> {
  const { TRANSCRIPTION_API_URL, TRANSCRIPTION_API_KEY, TRANSCRIPTION_MODEL } = env();
  if (!TRANSCRIPTION_API_URL) throw new TranscriptionError("Transkription ist nicht eingerichtet.");
  const form = multipart(
    recording,
    { model: TRANSCRIPTION_MODEL, language: TRANSCRIPTION_LANGUAGE, response_format: "json" },
    `sprachnachricht.${extension || "webm"}`,
  );
  let response: Response;
  try {
    response = await fetch(`${TRANSCRIPTION_API_URL.replace(/\/+$/, "")}/audio/transcriptions`, {
      method: "POST",
      headers: {
        "content-type": form.contentType,
        "content-length": String(form.length),
        ...(TRANSCRIPTION_API_KEY ? { authorization: `Bearer ${TRANSCRIPTION_API_KEY}` } : {}),
      },
      body: form.body,
      // @ts-expect-error undici needs duplex for a streamed body (not yet in lib.dom's RequestInit)
      duplex: "half",
      signal: AbortSignal.timeout(TRANSCRIPTION_TIMEOUT_MS),
      redirect: "error",
    });
  } catch (error) {
    throw new TranscriptionError(
      error instanceof Error && error.name === "TimeoutError"
        ? "Der Transkriptionsdienst hat nicht rechtzeitig geantwortet."
        : "Der Transkriptionsdienst ist nicht erreichbar.",
    );
  }
  const raw = await readCapped(response, TRANSCRIPTION_RESPONSE_CAP).catch((error) => {
    if (error instanceof TranscriptionError) throw error;
    throw new TranscriptionError("Die Antwort des Transkriptionsdienstes brach ab.");
  });
  if (!response.ok)
    throw new TranscriptionError(`Der Transkriptionsdienst antwortete mit ${response.status}.`);
  let text: unknown;
  try {
    text = (JSON.parse(raw) as { text?: unknown }).text;
  } catch {
    throw new TranscriptionError("Die Antwort des Transkriptionsdienstes war kein JSON.");
  }
  if (typeof text !== "string")
    throw new TranscriptionError("Die Antwort des Transkriptionsdienstes enthielt keinen Text.");
  return text.trim().slice(0, TRANSCRIPT_MAX_CHARS);
}
