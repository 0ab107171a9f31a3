// The FileStorage of @remix-run/file-storage on S3 (Tigris), streaming both ways (ADR 093):
// set() streams file.stream() with its known size as Content-Length (never arrayBuffer(): the app's
// upload objects are stream-only, and 25 MB per file must not sit in memory); get() returns a lazy
// File whose stream() and slice().stream() issue a GET with Range only when read.
import type {
  FileKey,
  FileMetadata,
  FileStorage,
  ListOptions,
  ListResult,
} from "@remix-run/file-storage";
import type { S3Bucket } from "./s3.ts";

/** A File backed by an S3 object (or a byte range of it), fetched lazily. */
function lazyS3File(
  bucket: S3Bucket,
  objectKey: string,
  meta: { name: string; type: string; size: number; lastModified: number },
  start = 0,
  end = meta.size,
): File {
  const size = Math.max(0, end - start);
  const stream = (): ReadableStream<Uint8Array> => {
    let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
    return new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (size === 0) return controller.close();
        if (!reader) {
          const partial = start > 0 || end < meta.size;
          const res = await bucket.get(objectKey, partial ? { start, end: end - 1 } : undefined);
          if (!res?.body) throw new Error("Datei im Objektspeicher nicht gefunden");
          reader = res.body.getReader();
        }
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      async cancel(reason) {
        await reader?.cancel(reason);
      },
    });
  };
  const file = {
    name: meta.name,
    type: meta.type,
    size,
    lastModified: meta.lastModified,
    stream,
    slice(from = 0, to = size) {
      const clamp = (n: number) => Math.min(size, Math.max(0, n < 0 ? size + n : n));
      return lazyS3File(bucket, objectKey, meta, start + clamp(from), start + clamp(to));
    },
    async arrayBuffer() {
      return new Response(stream()).arrayBuffer();
    },
    async text() {
      return new Response(stream()).text();
    },
  };
  return file as unknown as File;
}

export function createS3FileStorage(bucket: S3Bucket, prefix = "uploads/"): FileStorage {
  const objectKey = (key: string) => `${prefix}${key}`;
  const storage: FileStorage = {
    async get(key) {
      const headers = await bucket.head(objectKey(key));
      if (!headers) return null;
      return lazyS3File(bucket, objectKey(key), {
        name: decodeURIComponent(headers.get("x-amz-meta-name") ?? key),
        type: headers.get("content-type") ?? "application/octet-stream",
        size: Number(headers.get("content-length") ?? 0),
        lastModified: Number(headers.get("x-amz-meta-lastmodified")) || Date.now(),
      });
    },
    async has(key) {
      return (await bucket.head(objectKey(key))) !== null;
    },
    async set(key, file) {
      await bucket.put(objectKey(key), file.stream(), file.size, {
        "content-type": file.type || "application/octet-stream",
        "x-amz-meta-name": encodeURIComponent(file.name ?? key),
        "x-amz-meta-lastmodified": String(file.lastModified || Date.now()),
      });
    },
    async put(key, file) {
      await storage.set(key, file);
      return (await storage.get(key)) as File;
    },
    async remove(key) {
      await bucket.delete(objectKey(key));
    },
    async list<T extends ListOptions>(options?: T): Promise<ListResult<T>> {
      const objects = await bucket.list(`${prefix}${options?.prefix ?? ""}`);
      const files = objects.map((o) => {
        const key = o.key.slice(prefix.length);
        return options?.includeMetadata
          ? ({
              key,
              name: key,
              type: "",
              size: o.size,
              lastModified: o.lastModified,
            } as FileMetadata)
          : ({ key } as FileKey);
      });
      // One page with every key (ListObjectsV2 pages internally): the sweep walks them all anyway.
      return { files } as ListResult<T>;
    },
  };
  return storage;
}
