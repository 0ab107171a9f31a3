import path from "node:path";
import type { FileStorage } from "@remix-run/file-storage";
import { createFsFileStorage } from "@remix-run/file-storage/fs";
import { env } from "./env.server";

let storage: FileStorage | undefined;
let storageDir: string | undefined;

/** Files kept by @remix-run/file-storage under UPLOADS_DIR/files, addressed by random keys. */
export function fileStorage(): FileStorage {
  const dir = path.join(path.resolve(env().UPLOADS_DIR), "files");
  if (!storage || storageDir !== dir) {
    storage = createFsFileStorage(dir);
    storageDir = dir;
  }
  return storage;
}
