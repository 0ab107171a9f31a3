import { createHash, randomBytes } from "node:crypto";
import { mkdir, open, rename, rm } from "node:fs/promises";
import path from "node:path";
import type { FileStorage } from "@remix-run/file-storage";
import { createFsFileStorage } from "@remix-run/file-storage/fs";
import { fileChunks } from "./file-chunks.server";

/** Suffix of files being written; a crash leaves them behind, the sweep removes them. */
export const TEMP_SUFFIX = ".tmp";

/** Where the fs backend of @remix-run/file-storage keeps a key: `<root>/<h[0..2]>/<h>.dat|.meta.json`. */
export function storagePaths(root: string, key: string) {
  const hash = createHash("sha256").update(key).digest("hex");
  const directory = path.join(root, hash.slice(0, 2));
  return {
    directory,
    filePath: path.join(directory, `${hash}.dat`),
    metaPath: path.join(directory, `${hash}.meta.json`),
  };
}

/** Opens a new temp file; recreates the folder once if a sweep just removed it as empty. */
async function openTemp(temp: string) {
  try {
    return await open(temp, "wx");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    await mkdir(path.dirname(temp), { recursive: true });
    return open(temp, "wx");
  }
}

/** Writes a stream to a temp file beside target, flushes it to disk, then renames it into place. */
async function writeAtomically(target: string, chunks: AsyncIterable<Uint8Array> | Uint8Array) {
  const temp = `${target}.${randomBytes(6).toString("hex")}${TEMP_SUFFIX}`;
  const handle = await openTemp(temp);
  try {
    if (chunks instanceof Uint8Array) {
      await handle.write(chunks);
    } else {
      for await (const chunk of chunks) await handle.write(chunk);
    }
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  await rename(temp, target);
}

/**
 * The fs backend of @remix-run/file-storage, with a crash-safe write: the content and then the
 * metadata each go to a temp file and are renamed into place (the library writes the metadata
 * with a plain writeFile, so a crash could leave it truncated). Metadata present ⇒ content
 * complete. Reading, listing and removing are the library's (same layout on disk).
 */
export function createAtomicFsFileStorage(root: string): FileStorage {
  const inner = createFsFileStorage(root);
  async function set(key: string, file: File) {
    const { directory, filePath, metaPath } = storagePaths(root, key);
    await mkdir(directory, { recursive: true });
    await writeAtomically(filePath, file.stream() as unknown as AsyncIterable<Uint8Array>);
    const meta = {
      key,
      lastModified: file.lastModified,
      name: file.name,
      size: file.size,
      type: file.type,
    };
    await writeAtomically(metaPath, new TextEncoder().encode(JSON.stringify(meta)));
  }
  return {
    ...inner,
    async get(key) {
      const file = await inner.get(key);
      return file && closingStreams(file, storagePaths(root, key).filePath);
    },
    has: (key) => inner.has(key),
    list: ((options) => inner.list(options)) as FileStorage["list"],
    remove: (key) => inner.remove(key),
    set,
    async put(key, file) {
      await set(key, file);
      const stored = (await inner.get(key)) as NonNullable<Awaited<ReturnType<FileStorage["get"]>>>;
      return closingStreams(stored, storagePaths(root, key).filePath);
    },
  };
}

type StoredFile = NonNullable<Awaited<ReturnType<FileStorage["get"]>>>;

/**
 * The library's file with `stream()` and `slice(...).stream()` read through `fileChunks`, which
 * closes the file when the reader cancels (an aborted download); the library's stream never did.
 */
function closingStreams(file: StoredFile, filePath: string): StoredFile {
  const size = file.size;
  const slice = file.slice.bind(file);
  return Object.defineProperties(file, {
    stream: { value: () => fileChunks(filePath, 0, size) },
    slice: {
      value: (start?: number, end?: number, contentType?: string) => {
        const blob = slice(start, end, contentType);
        const from = relative(start ?? 0, size);
        const to = Math.max(from, relative(end ?? size, size));
        return Object.defineProperty(blob, "stream", {
          value: () => fileChunks(filePath, from, to),
        });
      },
    },
  });
}

/** A `Blob.slice` index: negative counts from the end; clamped to the size. */
const relative = (index: number, size: number) =>
  index < 0 ? Math.max(size + index, 0) : Math.min(index, size);
