import { randomBytes } from "node:crypto";
import { type FileHandle, open } from "node:fs/promises";
import { fileStorage } from "../upload-storage.server";
import { bootSweep, sweepUploads } from "./sweep.server";

// The stored uploads: keys, writing an accepted temp file into the storage, reading, deleting,
// and the hourly sweep of files no row refers to.

/** A fresh storage key: 32 hex characters plus the extension. */
export const randomKey = (ext: string) =>
  `${randomBytes(16).toString("hex")}${ext ? `.${ext}` : ""}`;

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

/** Moves an accepted temp file into the storage under key (streamed, never buffered whole). */
export async function storeTempFile(
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
let startSweep: Promise<unknown> | undefined;
/**
 * Background task: a sweep at start (everything written before the start), run beside the
 * serving server — it reads only the small partial index of stored recordings (issue 31) —,
 * then hourly (older than 1 h).
 */
export const uploadSweepTask = {
  start() {
    const failed = (error: unknown) =>
      console.warn("Upload-Aufräumen fehlgeschlagen:", (error as Error)?.name ?? "Fehler");
    startSweep = bootSweep(Date.now()).catch(failed);
    sweepTimer = setInterval(() => sweepUnreferencedUploads().catch(failed), 3600_000);
    sweepTimer.unref();
  },
  async stop() {
    if (sweepTimer) clearInterval(sweepTimer);
    sweepTimer = undefined;
    await startSweep;
  },
};
