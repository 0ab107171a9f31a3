import { randomBytes } from "node:crypto";
import { type FileHandle, open } from "node:fs/promises";
import { fileStorage } from "../storage/storage.server";

// The stored uploads: keys, writing an accepted temp file into the storage, reading, deleting,
// (the hourly sweep of files no row refers to: ./sweep.server.ts).

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
