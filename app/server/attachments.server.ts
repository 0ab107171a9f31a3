import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { createReadStream, createWriteStream, mkdirSync } from "node:fs";
import { type FileHandle, open, rm } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { Busboy } from "@fastify/busboy";
import { fileTypeFromFile } from "file-type";
import { extensionOf, type UploadLimits, uploadLimits, uploadMessages } from "~/lib/upload-rules";
import { getConfiguration } from "./configuration.server";
import { env } from "./env.server";
import { fileStorage } from "./upload-storage.server";
import { bootSweep, sweepUploads } from "./uploads/sweep.server";

/** The voice recording is always allowed (spec §9) but still capped. */
export const AUDIO_MAX_BYTES = 25 * 1024 * 1024;
/** Text fields of the contact form are small; anything beyond this is not a real form. */
const FIELD_MAX_BYTES = 64 * 1024;
const SNIFF_AUDIO = new Set(["webm", "ogg", "opus", "mp3", "m4a", "mp4", "wav", "aac", "flac"]);
/** Extensions the sniffed content must agree with (csv/plain text: checked as text). */
const SNIFFED_EXTENSIONS: Record<string, string[]> = {
  jpg: ["jpg"],
  jpeg: ["jpg"],
  png: ["png"],
  gif: ["gif"],
  webp: ["webp"],
  bmp: ["bmp"],
  pdf: ["pdf"],
  doc: ["cfb"],
  xls: ["cfb"],
  ppt: ["cfb"],
  docx: ["docx", "zip"],
  xlsx: ["xlsx", "zip"],
  pptx: ["pptx", "zip"],
};
const MIME_BY_EXTENSION: Record<string, string> = {
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
  webp: "image/webp",
  bmp: "image/bmp",
  pdf: "application/pdf",
  doc: "application/msword",
  xls: "application/vnd.ms-excel",
  ppt: "application/vnd.ms-powerpoint",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  csv: "text/csv",
};

function uploadsRoot() {
  return path.resolve(env().UPLOADS_DIR);
}
/** Parts being received are streamed here first, then moved into the storage once accepted. */
function incomingDir() {
  const dir = path.join(uploadsRoot(), "incoming");
  mkdirSync(dir, { recursive: true });
  return dir;
}

export type StoredUpload = {
  key: string;
  originalName: string;
  mimeType: string;
  size: number;
};

export type ParsedSubmission = {
  /** Text fields (the last value of each name). */
  fields: Record<string, string>;
  attachments: StoredUpload[];
  audio: StoredUpload | null;
  /** German messages; when non-empty nothing was stored. */
  uploadErrors: string[];
  /** True when a limit was exceeded (status 413 rather than 400). */
  tooLarge: boolean;
};

type Received = {
  field: "attachments" | "audio";
  originalName: string;
  ext: string;
  tempPath: string | null;
  size: number;
  declaredType: string;
};

const randomKey = (ext: string) => `${randomBytes(16).toString("hex")}${ext ? `.${ext}` : ""}`;

/** The most a well-formed submission can weigh: refused before reading a byte beyond. */
export function hardBodyLimit(limits: UploadLimits) {
  return limits.maxTotalBytes + AUDIO_MAX_BYTES + 1024 * 1024;
}

/** The absolute cap on a multipart body under the current configuration (server/guards.ts). */
export function multipartCap() {
  return hardBodyLimit(uploadLimits(getConfiguration().uploadSettings));
}

/**
 * Parses a multipart (or url-encoded) form while streaming each file part to disk as it arrives.
 * Limits are enforced while streaming: a part beyond a limit is no longer written (only counted).
 * Any upload error rejects the whole selection: every part written so far is removed.
 */
export async function parseSubmissionBody(
  request: Request,
  limits: UploadLimits & { refuseFiles?: string },
): Promise<ParsedSubmission> {
  const contentType = request.headers.get("content-type") ?? "";
  const fields: Record<string, string> = {};
  const received: Received[] = [];
  const errors: string[] = [];
  let tooLarge = false;
  let attachmentCount = 0;
  let attachmentBytes = 0;
  let tooManyReported = false;
  let totalExceeded = false;

  if (
    !request.body ||
    !/^(multipart\/form-data|application\/x-www-form-urlencoded)/i.test(contentType)
  ) {
    return { fields, attachments: [], audio: null, uploadErrors: [], tooLarge: false };
  }

  const busboy = Busboy({
    headers: { "content-type": contentType },
    limits: { fieldSize: FIELD_MAX_BYTES, fields: 50, files: limits.maxFiles + 20, parts: 200 },
  });
  const pending: Promise<void>[] = [];

  busboy.on("field", (name, value) => {
    fields[name] = value;
  });

  busboy.on("file", (field, stream, filename, _encoding, mimeType) => {
    const originalName = path.basename((filename ?? "").replace(/\\/g, "/")).slice(0, 255);
    // refuseFiles (the disk is almost full): the file is drained unread, its text fields still count.
    if ((field !== "attachments" && field !== "audio") || !originalName || limits.refuseFiles) {
      if (limits.refuseFiles && originalName && !errors.length) errors.push(limits.refuseFiles);
      stream.resume();
      return;
    }
    const ext = extensionOf(originalName);
    const entry: Received = {
      field,
      originalName,
      ext,
      tempPath: null,
      size: 0,
      declaredType: mimeType,
    };
    let accept = true;
    let maxBytes = AUDIO_MAX_BYTES;
    if (field === "attachments") {
      attachmentCount += 1;
      maxBytes = limits.maxFileBytes;
      if (attachmentCount > limits.maxFiles) {
        accept = false;
        if (!tooManyReported) errors.push(uploadMessages.tooMany(limits.maxFiles));
        tooManyReported = true;
        tooLarge = true;
      } else if (!limits.extensions.includes(ext)) {
        accept = false;
        errors.push(uploadMessages.typeNotAllowed(originalName, limits.extensions));
      }
    } else if (received.some((r) => r.field === "audio")) {
      accept = false;
    }
    received.push(entry);
    pending.push(receivePart(stream, entry, accept, maxBytes));
  });

  async function receivePart(stream: Readable, entry: Received, accept: boolean, maxBytes: number) {
    let out = accept ? createWriteStream(path.join(incomingDir(), randomKey("part"))) : null;
    if (out) entry.tempPath = out.path as string;
    let overLimit = false;
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        entry.size += chunk.length;
        if (entry.field === "attachments" && accept) {
          attachmentBytes += chunk.length;
          if (attachmentBytes > limits.maxTotalBytes) totalExceeded = true;
        }
        if (out && (entry.size > maxBytes || totalExceeded)) {
          // Cut off: stop writing, keep counting the rest for the message.
          overLimit = entry.size > maxBytes;
          out.destroy();
          out = null;
        }
        if (out && !out.write(chunk)) await once(out, "drain");
      }
      if (out) {
        out.end();
        await once(out, "finish");
      }
    } catch (error) {
      out?.destroy();
      throw error;
    }
    if (overLimit) {
      tooLarge = true;
      if (entry.field === "attachments") {
        errors.push(
          uploadMessages.fileTooLarge(entry.originalName, entry.size, limits.maxFileSizeMB),
        );
      } else {
        errors.push(
          `${entry.originalName}: Datei zu groß (${(entry.size / 1024 / 1024).toFixed(1).replace(".", ",")} MB). Maximum: ${AUDIO_MAX_BYTES / 1024 / 1024} MB`,
        );
      }
    }
  }

  const finished = new Promise<void>((resolve, reject) => {
    busboy.on("finish", resolve);
    busboy.on("error", reject);
  });
  const body = Readable.fromWeb(request.body as import("node:stream/web").ReadableStream);
  body.on("error", (error) => busboy.destroy(error));
  body.pipe(busboy);

  const cleanup = () =>
    Promise.all(received.map((r) => (r.tempPath ? rm(r.tempPath, { force: true }) : undefined)));
  try {
    await finished;
    await Promise.all(pending);
  } catch (error) {
    await Promise.allSettled(pending);
    await cleanup();
    throw error;
  }

  if (totalExceeded) {
    tooLarge = true;
    errors.push(uploadMessages.totalTooLarge(attachmentBytes, limits.maxTotalSizeMB));
  }

  // The extension must agree with the content.
  const accepted = received.filter((r) => r.tempPath && !errors.length);
  for (const entry of accepted) {
    const detected = await sniff(entry);
    if (!detected.ok) {
      errors.push(
        entry.field === "audio"
          ? `${entry.originalName}: Dateityp nicht erlaubt. Erlaubte Formate: webm, ogg, mp3, m4a, wav`
          : uploadMessages.typeNotAllowed(entry.originalName, limits.extensions),
      );
    } else {
      entry.declaredType = detected.mime;
    }
  }

  if (errors.length) {
    await cleanup();
    return { fields, attachments: [], audio: null, uploadErrors: errors, tooLarge };
  }

  const stored: (StoredUpload & { field: Received["field"] })[] = [];
  try {
    for (const entry of received) {
      if (!entry.tempPath) continue;
      const key = randomKey(
        entry.field === "audio" ? audioExtension(entry.declaredType) : entry.ext,
      );
      await storeTempFile(key, entry.tempPath, entry.originalName, entry.declaredType, entry.size);
      stored.push({
        field: entry.field,
        key,
        originalName: entry.originalName,
        mimeType: entry.declaredType,
        size: entry.size,
      });
    }
  } catch (error) {
    await deleteStoredFiles(stored.map((s) => s.key));
    await cleanup();
    throw error;
  }
  await cleanup();
  const strip = ({ field: _field, ...rest }: (typeof stored)[number]) => rest;
  return {
    fields,
    attachments: stored.filter((s) => s.field === "attachments").map(strip),
    audio: stored.filter((s) => s.field === "audio").map(strip)[0] ?? null,
    uploadErrors: [],
    tooLarge: false,
  };
}

async function sniff(entry: Received): Promise<{ ok: true; mime: string } | { ok: false }> {
  if (!entry.tempPath) return { ok: false };
  const detected = await fileTypeFromFile(entry.tempPath);
  if (entry.field === "audio") {
    if (!detected || !SNIFF_AUDIO.has(detected.ext)) return { ok: false };
    const mime =
      detected.ext === "webm" ? "audio/webm" : detected.mime.replace(/^video\//, "audio/");
    return { ok: true, mime };
  }
  if (entry.ext === "csv") {
    if (detected) return { ok: false };
    return (await looksLikeText(entry.tempPath)) ? { ok: true, mime: "text/csv" } : { ok: false };
  }
  const expected = SNIFFED_EXTENSIONS[entry.ext];
  if (!detected || !expected?.includes(detected.ext)) return { ok: false };
  return { ok: true, mime: MIME_BY_EXTENSION[entry.ext] ?? detected.mime };
}

/** Plain text: no NUL and (almost) no control characters in the first 64 KB. */
async function looksLikeText(file: string): Promise<boolean> {
  const stream = createReadStream(file, { start: 0, end: 64 * 1024 - 1 });
  let suspicious = 0;
  let seen = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    for (const byte of chunk) {
      seen += 1;
      if (byte === 0) return false;
      if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c) {
        suspicious += 1;
      }
    }
  }
  return seen > 0 && suspicious / seen < 0.01;
}

function audioExtension(mime: string) {
  const sub = mime.split("/")[1]?.split(";")[0] ?? "";
  return /^[a-z0-9]{2,5}$/.test(sub) ? sub : "audio";
}

/**
 * A pull-based stream of a file in 64 KB chunks. (Readable.toWeb counts chunks, not bytes, and
 * would read a whole 10 MB part into memory ahead of the writer.)
 */
function fileChunks(file: string): ReadableStream<Uint8Array> {
  let handle: FileHandle | undefined;
  return new ReadableStream<Uint8Array>(
    {
      async start() {
        handle = await open(file, "r");
      },
      async pull(controller) {
        const buffer = new Uint8Array(64 * 1024);
        const { bytesRead } = await (handle as FileHandle).read(buffer, 0, buffer.length, null);
        if (bytesRead === 0) {
          await handle?.close();
          controller.close();
        } else {
          controller.enqueue(buffer.subarray(0, bytesRead));
        }
      },
      async cancel() {
        await handle?.close();
      },
    },
    { highWaterMark: 1 },
  );
}

async function storeTempFile(
  key: string,
  tempPath: string,
  name: string,
  type: string,
  size: number,
) {
  // A File-like object streaming from the temp file: file-storage copies it without buffering.
  const file = {
    name,
    type,
    size,
    lastModified: Date.now(),
    stream: () => fileChunks(tempPath),
  } as unknown as File;
  await fileStorage().set(key, file);
}

const KEY_PATTERN = /^[a-f0-9]{32}(\.[a-z0-9]{1,5})?$/;
/** Whether key has the shape of a storage key (no path traversal possible). */
export const isStorageKey = (key: string) => KEY_PATTERN.test(key);

/** The stored file (lazy, streamable, sliceable) or null. */
export async function openStoredFile(key: string): Promise<File | null> {
  if (!isStorageKey(key)) return null;
  return (await fileStorage().get(key)) as File | null;
}

export async function deleteStoredFile(key: string): Promise<void> {
  if (!isStorageKey(key)) return;
  await fileStorage().remove(key);
}

export async function deleteStoredFiles(keys: string[]): Promise<void> {
  await Promise.allSettled(keys.map((k) => deleteStoredFile(k)));
}

/** Removes stored files no row refers to and crash leftovers older than `olderThanMs`. */
export const sweepUnreferencedUploads = (olderThanMs = 3600_000) =>
  sweepUploads({ cutoff: Date.now() - olderThanMs });

let sweepTimer: ReturnType<typeof setInterval> | undefined;
/** Background task: a sweep at start, before the server listens (everything before the start), then hourly (older than 1 h). */
export const uploadSweepTask = {
  async start() {
    const failed = (error: unknown) =>
      console.warn("Upload-Aufräumen fehlgeschlagen:", (error as Error)?.name ?? "Fehler");
    await bootSweep().catch(failed);
    sweepTimer = setInterval(() => sweepUnreferencedUploads().catch(failed), 3600_000);
    sweepTimer.unref();
  },
  stop() {
    if (sweepTimer) clearInterval(sweepTimer);
    sweepTimer = undefined;
  },
};
