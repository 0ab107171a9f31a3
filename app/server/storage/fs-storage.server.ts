import { createHash, randomBytes } from "node:crypto";
import { mkdir, open, rename, rm } from "node:fs/promises";
import path from "node:path";
import type { FileStorage } from "@remix-run/file-storage";
import { createFsFileStorage } from "@remix-run/file-storage/fs";

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
    get: (key) => inner.get(key),
    has: (key) => inner.has(key),
    list: ((options) => inner.list(options)) as FileStorage["list"],
    remove: (key) => inner.remove(key),
    set,
    async put(key, file) {
      await set(key, file);
      return (await inner.get(key)) as NonNullable<Awaited<ReturnType<FileStorage["get"]>>>;
    },
  };
}
