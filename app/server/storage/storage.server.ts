import path from "node:path";
import type { FileStorage } from "@remix-run/file-storage";
import { env } from "../platform/env.server";
import { createAtomicFsFileStorage } from "./fs-storage.server";
import { S3Bucket, s3ConfigFromEnv } from "./s3.ts";
import { createS3FileStorage } from "./s3-file-storage.server";

let storage: FileStorage | undefined;
let storageId: string | undefined;

/**
 * Where attachments and recordings live: with BUCKET_NAME in object storage under `uploads/` (they
 * survive the machine, ADR 093), otherwise under UPLOADS_DIR/files; addressed by random keys.
 */
export function fileStorage(): FileStorage {
  const s3 = env().BUCKET_NAME ? s3ConfigFromEnv(process.env) : undefined;
  const id = s3
    ? `s3:${s3.endpoint}/${s3.bucket}`
    : path.join(path.resolve(env().UPLOADS_DIR), "files");
  if (!storage || storageId !== id) {
    storage = s3 ? createS3FileStorage(new S3Bucket(s3)) : createAtomicFsFileStorage(id);
    storageId = id;
  }
  return storage;
}
