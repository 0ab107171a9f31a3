import { once } from "node:events";
import { createWriteStream, mkdirSync } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { Busboy } from "@fastify/busboy";
import { extensionOf, type UploadLimits, uploadLimits, uploadMessages } from "~/lib/upload-rules";
import { getConfiguration } from "../configuration/configuration.server";
import { env } from "../platform/env.server";
import { audioExtension, sniff } from "./sniff.server";
import { deleteStoredFiles, randomKey, storeTempFile } from "./store.server";

/** The voice recording is always allowed (spec §9) but still capped. */
export const AUDIO_MAX_BYTES = 25 * 1024 * 1024;
/** Text fields of the contact form are small; anything beyond this is not a real form. */
const FIELD_MAX_BYTES = 64 * 1024;

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

type Limits = UploadLimits & { refuseFiles?: string };
type Field = "attachments" | "audio";

type Received = {
  field: Field;
  originalName: string;
  ext: string;
  tempPath: string | null;
  size: number;
  declaredType: string;
};

/** The most a well-formed submission can weigh: refused before reading a byte beyond. */
export function hardBodyLimit(limits: UploadLimits) {
  return limits.maxTotalBytes + AUDIO_MAX_BYTES + 1024 * 1024;
}

/** The absolute cap on a multipart body under the current configuration (server/guards.ts). */
export function multipartCap() {
  return hardBodyLimit(uploadLimits(getConfiguration().uploadSettings));
}

/** Parts being received are streamed here first, then moved into the storage once accepted. */
function incomingDir() {
  const dir = path.join(path.resolve(env().UPLOADS_DIR), "incoming");
  mkdirSync(dir, { recursive: true });
  return dir;
}

const audioTooLarge = (entry: Received) =>
  `${entry.originalName}: Datei zu groß (${(entry.size / 1024 / 1024).toFixed(1).replace(".", ",")} MB). Maximum: ${AUDIO_MAX_BYTES / 1024 / 1024} MB`;

/**
 * The state of one submission while its parts arrive: fields, parts written to temp files, the
 * running counts the limits are checked against, and the German messages of what was refused.
 */
class SubmissionReceiver {
  readonly fields: Record<string, string> = {};
  readonly errors: string[] = [];
  tooLarge = false;
  private readonly received: Received[] = [];
  private readonly pending: Promise<void>[] = [];
  private attachmentCount = 0;
  private attachmentBytes = 0;
  private tooManyReported = false;
  private totalExceeded = false;

  constructor(private readonly limits: Limits) {}

  onField = (name: string, value: string) => {
    this.fields[name] = value;
  };

  onFile = (
    field: string,
    stream: Readable,
    filename: string | undefined,
    _e: string,
    mime: string,
  ) => {
    const originalName = path.basename((filename ?? "").replace(/\\/g, "/")).slice(0, 255);
    const { refuseFiles } = this.limits;
    // refuseFiles (the disk is almost full): the file is drained unread, its text fields still count.
    if ((field !== "attachments" && field !== "audio") || !originalName || refuseFiles) {
      if (refuseFiles && originalName && !this.errors.length) this.errors.push(refuseFiles);
      stream.resume();
      return;
    }
    const entry: Received = {
      field,
      originalName,
      ext: extensionOf(originalName),
      tempPath: null,
      size: 0,
      declaredType: mime,
    };
    const { accept, maxBytes } = this.admit(entry);
    this.received.push(entry);
    this.pending.push(this.receive(stream, entry, accept, maxBytes));
  };

  /** Whether a new part is written at all (count, type, one recording) and its size limit. */
  private admit(entry: Received): { accept: boolean; maxBytes: number } {
    if (entry.field === "audio") {
      return { accept: !this.received.some((r) => r.field === "audio"), maxBytes: AUDIO_MAX_BYTES };
    }
    const { maxFiles, maxFileBytes, extensions } = this.limits;
    this.attachmentCount += 1;
    if (this.attachmentCount > maxFiles) {
      if (!this.tooManyReported) this.errors.push(uploadMessages.tooMany(maxFiles));
      this.tooManyReported = true;
      this.tooLarge = true;
      return { accept: false, maxBytes: maxFileBytes };
    }
    if (!extensions.includes(entry.ext)) {
      this.errors.push(uploadMessages.typeNotAllowed(entry.originalName, extensions));
      return { accept: false, maxBytes: maxFileBytes };
    }
    return { accept: true, maxBytes: maxFileBytes };
  }

  /** Streams a part to its temp file; beyond a limit it stops writing but keeps counting. */
  private async receive(stream: Readable, entry: Received, accept: boolean, maxBytes: number) {
    let out = accept ? createWriteStream(path.join(incomingDir(), randomKey("part"))) : null;
    if (out) entry.tempPath = out.path as string;
    let overLimit = false;
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        entry.size += chunk.length;
        if (entry.field === "attachments" && accept) {
          this.attachmentBytes += chunk.length;
          if (this.attachmentBytes > this.limits.maxTotalBytes) this.totalExceeded = true;
        }
        if (out && (entry.size > maxBytes || this.totalExceeded)) {
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
      this.tooLarge = true;
      this.errors.push(
        entry.field === "attachments"
          ? uploadMessages.fileTooLarge(entry.originalName, entry.size, this.limits.maxFileSizeMB)
          : audioTooLarge(entry),
      );
    }
  }

  /** Waits for every part; on a broken body removes what was written and rethrows. */
  async settle(finished: Promise<void>) {
    try {
      await finished;
      await Promise.all(this.pending);
    } catch (error) {
      await Promise.allSettled(this.pending);
      await this.cleanup();
      throw error;
    }
    if (this.totalExceeded) {
      this.tooLarge = true;
      this.errors.push(
        uploadMessages.totalTooLarge(this.attachmentBytes, this.limits.maxTotalSizeMB),
      );
    }
  }

  /** The extension must agree with the content (only when nothing was refused so far). */
  async verifyContent() {
    const accepted = this.received.filter((r) => r.tempPath && !this.errors.length);
    for (const entry of accepted) {
      const detected = await sniff(entry);
      if (detected) {
        entry.declaredType = detected;
      } else {
        this.errors.push(
          entry.field === "audio"
            ? `${entry.originalName}: Dateityp nicht erlaubt. Erlaubte Formate: webm, ogg, mp3, m4a, wav`
            : uploadMessages.typeNotAllowed(entry.originalName, this.limits.extensions),
        );
      }
    }
  }

  /** Moves every accepted part into the storage; all or nothing. */
  async store(): Promise<(StoredUpload & { field: Field })[]> {
    const stored: (StoredUpload & { field: Field })[] = [];
    try {
      for (const entry of this.received) {
        if (!entry.tempPath) continue;
        const ext = entry.field === "audio" ? audioExtension(entry.declaredType) : entry.ext;
        const key = randomKey(ext);
        const { originalName, declaredType: mimeType, size } = entry;
        await storeTempFile(key, entry.tempPath, originalName, mimeType, size);
        stored.push({ field: entry.field, key, originalName, mimeType, size });
      }
    } catch (error) {
      await deleteStoredFiles(stored.map((s) => s.key));
      await this.cleanup();
      throw error;
    }
    await this.cleanup();
    return stored;
  }

  cleanup() {
    return Promise.all(
      this.received.map((r) => (r.tempPath ? rm(r.tempPath, { force: true }) : undefined)),
    );
  }
}

/**
 * Parses a multipart (or url-encoded) form while streaming each file part to disk as it arrives.
 * Limits are enforced while streaming: a part beyond a limit is no longer written (only counted).
 * Any upload error rejects the whole selection: every part written so far is removed.
 */
export async function parseSubmissionBody(
  request: Request,
  limits: Limits,
): Promise<ParsedSubmission> {
  const contentType = request.headers.get("content-type") ?? "";
  if (
    !request.body ||
    !/^(multipart\/form-data|application\/x-www-form-urlencoded)/i.test(contentType)
  ) {
    return { fields: {}, attachments: [], audio: null, uploadErrors: [], tooLarge: false };
  }

  const receiver = new SubmissionReceiver(limits);
  const busboy = Busboy({
    headers: { "content-type": contentType },
    limits: { fieldSize: FIELD_MAX_BYTES, fields: 50, files: limits.maxFiles + 20, parts: 200 },
  });
  busboy.on("field", receiver.onField);
  busboy.on("file", receiver.onFile);
  const finished = new Promise<void>((resolve, reject) => {
    busboy.on("finish", resolve);
    busboy.on("error", reject);
  });
  const body = Readable.fromWeb(request.body as import("node:stream/web").ReadableStream);
  body.on("error", (error) => busboy.destroy(error));
  body.pipe(busboy);

  await receiver.settle(finished);
  await receiver.verifyContent();
  const { fields, errors, tooLarge } = receiver;
  if (errors.length) {
    await receiver.cleanup();
    return { fields, attachments: [], audio: null, uploadErrors: errors, tooLarge };
  }
  const stored = await receiver.store();
  const strip = ({ field: _field, ...rest }: (typeof stored)[number]) => rest;
  return {
    fields,
    attachments: stored.filter((s) => s.field === "attachments").map(strip),
    audio: stored.filter((s) => s.field === "audio").map(strip)[0] ?? null,
    uploadErrors: [],
    tooLarge: false,
  };
}
