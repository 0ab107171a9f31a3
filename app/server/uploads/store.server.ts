import { randomBytes } from "node:crypto";
import { fileChunks } from "../storage/file-chunks.server";
import { fileStorage } from "../storage/storage.server";

// The stored uploads: keys, writing an accepted temp file into the storage, reading, deleting,
// (the hourly sweep of files no row refers to: ./sweep.server.ts).

/** A fresh storage key: 32 hex characters plus the extension. */
export const randomKey = (ext: string) =>
  `${randomBytes(16).toString("hex")}${ext ? `.${ext}` : ""}`;

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
