import { afterAll, beforeAll, expect, it } from "vitest";
import { startS3StandIn } from "../s3-stand-in";

// The stand-in's multipart upload (Litestream's uploader sends a snapshot over 5 MB in parts):
// the object is the listed parts in order, an unknown upload is refused, an aborted one is gone.
let s3: Awaited<ReturnType<typeof startS3StandIn>>;
beforeAll(async () => {
  s3 = await startS3StandIn("multipart");
});
afterAll(() => s3.close());

it("assembles a multipart upload from its listed parts", async () => {
  const url = `${s3.endpoint}/multipart/db/generations/1/snapshots/00000000.snapshot.lz4`;
  const started = await fetch(`${url}?uploads`, { method: "POST" });
  const uploadId = /<UploadId>(.+)<\/UploadId>/.exec(await started.text())?.[1];
  expect(uploadId).toBeTruthy();
  for (const [n, text] of [
    [2, "zwei"],
    [1, "eins-"],
  ] as const) {
    const part = await fetch(`${url}?partNumber=${n}&uploadId=${uploadId}`, {
      method: "PUT",
      body: text,
    });
    expect(part.headers.get("etag")).toMatch(/^"[0-9a-f]{32}"$/);
  }
  const done = await fetch(`${url}?uploadId=${uploadId}`, {
    method: "POST",
    body: "<CompleteMultipartUpload><Part><PartNumber>1</PartNumber></Part><Part><PartNumber>2</PartNumber></Part></CompleteMultipartUpload>",
  });
  expect(await done.text()).toMatch(/<ETag>&quot;[0-9a-f]{32}-2&quot;<\/ETag>/);
  expect(await (await fetch(url)).text()).toBe("eins-zwei");
  // The upload is finished: another part for it is refused.
  const late = await fetch(`${url}?partNumber=3&uploadId=${uploadId}`, {
    method: "PUT",
    body: "x",
  });
  expect(late.status).toBe(404);
});

it("forgets an aborted upload", async () => {
  const url = `${s3.endpoint}/multipart/aborted`;
  const started = await fetch(`${url}?uploads`, { method: "POST" });
  const uploadId = /<UploadId>(.+)<\/UploadId>/.exec(await started.text())?.[1];
  await fetch(`${url}?partNumber=1&uploadId=${uploadId}`, { method: "PUT", body: "x" });
  expect((await fetch(`${url}?uploadId=${uploadId}`, { method: "DELETE" })).status).toBe(204);
  expect((await fetch(`${url}?uploadId=${uploadId}`, { method: "POST", body: "" })).status).toBe(
    404,
  );
  expect((await fetch(url)).status).toBe(404);
});
