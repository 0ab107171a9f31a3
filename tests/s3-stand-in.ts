// A small S3 stand-in on loopback for tests (path-style): PUT/GET (Range)/HEAD/DELETE objects,
// multipart uploads (Litestream's uploader sends snapshots over 5 MB in parts), DeleteObjects,
// ListObjects v1 and v2 with prefix and delimiter (CommonPrefixes, also for nested
// prefixes, which `litestream restore` needs). Signatures are not checked. Objects live in memory.
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

type StoredObject = { body: Buffer; headers: Record<string, string>; modified: Date };

const xml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startS3StandIn(bucket = "test-bucket") {
  const objects = new Map<string, StoredObject>();
  const requests: { method: string; key: string; range?: string; contentLength?: string }[] = [];
  const uploads = new Map<string, { key: string; parts: Map<number, Buffer> }>();
  let uploadCount = 0;

  function list(res: ServerResponse, query: URLSearchParams) {
    const v2 = query.get("list-type") === "2";
    const prefix = query.get("prefix") ?? "";
    const delimiter = query.get("delimiter") ?? "";
    const keys = [...objects.keys()].filter((k) => k.startsWith(prefix)).sort();
    const contents: string[] = [];
    const prefixes = new Set<string>();
    for (const key of keys) {
      const rest = key.slice(prefix.length);
      const cut = delimiter ? rest.indexOf(delimiter) : -1;
      if (cut >= 0) {
        prefixes.add(prefix + rest.slice(0, cut + delimiter.length));
        continue;
      }
      const object = objects.get(key) as StoredObject;
      contents.push(
        `<Contents><Key>${xml(key)}</Key><LastModified>${object.modified.toISOString()}</LastModified><ETag>"${createHash("md5").update(object.body).digest("hex")}"</ETag><Size>${object.body.length}</Size><StorageClass>STANDARD</StorageClass></Contents>`,
      );
    }
    const common = [...prefixes]
      .map((p) => `<CommonPrefixes><Prefix>${xml(p)}</Prefix></CommonPrefixes>`)
      .join("");
    res.writeHead(200, { "content-type": "application/xml" });
    res.end(
      `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>${bucket}</Name><Prefix>${xml(prefix)}</Prefix>${
        v2 ? `<KeyCount>${contents.length + prefixes.size}</KeyCount>` : "<Marker></Marker>"
      }<MaxKeys>1000</MaxKeys>${delimiter ? `<Delimiter>${xml(delimiter)}</Delimiter>` : ""}<IsTruncated>false</IsTruncated>${contents.join("")}${common}</ListBucketResult>`,
    );
  }

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://s3.local");
    const [, name, ...rest] = url.pathname.split("/");
    const key = rest.map(decodeURIComponent).join("/");
    requests.push({
      method: req.method ?? "GET",
      key,
      range: req.headers.range,
      contentLength: req.headers["content-length"],
    });
    if (name !== bucket) {
      res.writeHead(404).end("<Error><Code>NoSuchBucket</Code></Error>");
      return;
    }
    if (!key) {
      if (req.method === "POST" && url.searchParams.has("delete")) {
        const body = (await readBody(req)).toString();
        const deleted = [...body.matchAll(/<Key>([\s\S]*?)<\/Key>/g)].map((m) => m[1]);
        for (const k of deleted) objects.delete(k);
        res.writeHead(200, { "content-type": "application/xml" });
        res.end(
          `<DeleteResult>${deleted.map((k) => `<Deleted><Key>${xml(k)}</Key></Deleted>`).join("")}</DeleteResult>`,
        );
        return;
      }
      if (req.method === "GET" && url.searchParams.has("location")) {
        res.writeHead(200, { "content-type": "application/xml" });
        res.end("<LocationConstraint>auto</LocationConstraint>");
        return;
      }
      if (req.method === "GET") return list(res, url.searchParams);
      res.writeHead(200).end();
      return;
    }
    const uploadId = url.searchParams.get("uploadId");
    if (req.method === "POST" && url.searchParams.has("uploads")) {
      const id = `upload-${++uploadCount}`;
      uploads.set(id, { key, parts: new Map() });
      res.writeHead(200, { "content-type": "application/xml" });
      res.end(
        `<InitiateMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${xml(key)}</Key><UploadId>${id}</UploadId></InitiateMultipartUploadResult>`,
      );
      return;
    }
    if (uploadId !== null) {
      const upload = uploads.get(uploadId);
      if (!upload || upload.key !== key) {
        res.writeHead(404, { "content-type": "application/xml" });
        res.end("<Error><Code>NoSuchUpload</Code></Error>");
        return;
      }
      if (req.method === "PUT") {
        const body = await readBody(req);
        upload.parts.set(Number(url.searchParams.get("partNumber")), body);
        res.writeHead(200, { etag: `"${createHash("md5").update(body).digest("hex")}"` }).end();
        return;
      }
      if (req.method === "POST") {
        const listed = [
          ...(await readBody(req)).toString().matchAll(/<PartNumber>(\d+)<\/PartNumber>/g),
        ].map((m) => Number(m[1]));
        const body = Buffer.concat(listed.map((n) => upload.parts.get(n) ?? Buffer.alloc(0)));
        uploads.delete(uploadId);
        objects.set(key, { body, headers: {}, modified: new Date() });
        const etag = `"${createHash("md5").update(body).digest("hex")}-${listed.length}"`;
        res.writeHead(200, { "content-type": "application/xml" });
        res.end(
          `<CompleteMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${xml(key)}</Key><ETag>${xml(etag)}</ETag></CompleteMultipartUploadResult>`,
        );
        return;
      }
      if (req.method === "DELETE") {
        uploads.delete(uploadId);
        res.writeHead(204).end();
        return;
      }
    }
    switch (req.method) {
      case "PUT": {
        const body = await readBody(req);
        const headers: Record<string, string> = {};
        for (const [h, v] of Object.entries(req.headers)) {
          if ((h === "content-type" || h.startsWith("x-amz-meta-")) && typeof v === "string") {
            headers[h] = v;
          }
        }
        objects.set(key, { body, headers, modified: new Date() });
        res.writeHead(200, { etag: `"${createHash("md5").update(body).digest("hex")}"` }).end();
        return;
      }
      case "GET":
      case "HEAD": {
        const object = objects.get(key);
        if (!object) {
          res.writeHead(404, { "content-type": "application/xml" });
          res.end(req.method === "HEAD" ? undefined : "<Error><Code>NoSuchKey</Code></Error>");
          return;
        }
        const size = object.body.length;
        const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? "");
        const start = range ? Number(range[1]) : 0;
        const end = range?.[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
        if (range && start >= size) {
          res.writeHead(416, { "content-range": `bytes */${size}` }).end();
          return;
        }
        res.writeHead(range ? 206 : 200, {
          ...object.headers,
          "content-length": String(end - start + 1),
          "accept-ranges": "bytes",
          "last-modified": object.modified.toUTCString(),
          ...(range ? { "content-range": `bytes ${start}-${end}/${size}` } : {}),
        });
        res.end(req.method === "HEAD" ? undefined : object.body.subarray(start, end + 1));
        return;
      }
      case "DELETE":
        objects.delete(key);
        res.writeHead(204).end();
        return;
      default:
        res.writeHead(405).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    bucket,
    endpoint: `http://127.0.0.1:${port}`,
    objects,
    requests,
    /** The variables `fly storage create` would set, pointing at this stand-in. */
    env: {
      BUCKET_NAME: bucket,
      AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${port}`,
      AWS_REGION: "auto",
      AWS_ACCESS_KEY_ID: "test-key-id",
      AWS_SECRET_ACCESS_KEY: "test-secret-key",
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
