// Attachments and recordings in object storage when BUCKET_NAME is set (ADR 093): streamed to the S3
// stand-in with Content-Length under uploads/, served back byte-identical, with Range.
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startS3StandIn } from "../s3-stand-in";
import { multipart, validFields, webmBytes } from "./landing-fixtures";
import { startTestServer, type TestServer } from "./server";

let s3: Awaited<ReturnType<typeof startS3StandIn>>;
let server: TestServer;
beforeAll(async () => {
  s3 = await startS3StandIn("uploads-bucket");
  server = await startTestServer({ ...s3.env });
});
afterAll(async () => {
  await server.close();
  await s3.close();
  for (const key of Object.keys(s3.env)) delete process.env[key];
});

/** A 2 MB PDF whose bytes are random after the header (so any mix-up shows). */
function bigPdf() {
  return Buffer.concat([
    Buffer.from("%PDF-1.4\n"),
    randomBytes(2 * 1024 * 1024),
    Buffer.from("\n%%EOF\n"),
  ]);
}

describe("uploads in object storage", () => {
  it("streams files to uploads/ and serves them byte-identical, with Range", async () => {
    const pdf = bigPdf();
    const res = await server.fetch("/api/requests", {
      method: "POST",
      body: multipart(validFields(), [
        { name: "plan.pdf", bytes: pdf, type: "application/pdf" },
        { field: "audio", name: "aufnahme.webm", bytes: webmBytes(), type: "audio/webm" },
      ]),
    });
    expect(res.status).toBe(201);
    const body = await res.json();
    const filename = body.attachments[0].filename as string;

    // In the bucket, not on the local disk (only the emptied incoming folder remains).
    const object = s3.objects.get(`uploads/${filename}`);
    expect(object?.body.equals(pdf)).toBe(true);
    expect(object?.headers["content-type"]).toBe("application/pdf");
    expect(s3.objects.get(`uploads/${body.audioPath}`)?.body.equals(webmBytes())).toBe(true);
    const put = s3.requests.find((r) => r.method === "PUT" && r.key === `uploads/${filename}`);
    expect(put?.contentLength).toBe(String(pdf.length));
    const filesDir = path.join(process.env.UPLOADS_DIR as string, "files");
    expect(existsSync(filesDir) ? readdirSync(filesDir) : []).toEqual([]);

    const token = await server.adminToken();
    const whole = await server.fetch(`/api/uploads/${filename}`, { token });
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-length")).toBe(String(pdf.length));
    expect(Buffer.from(await whole.arrayBuffer()).equals(pdf)).toBe(true);

    const ranged = await server.fetch(`/api/uploads/${filename}`, {
      token,
      headers: { range: "bytes=1000-1999" },
    });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get("content-range")).toBe(`bytes 1000-1999/${pdf.length}`);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(pdf.subarray(1000, 2000))).toBe(true);
    // The range went to the object store as a ranged GET: no whole-object download.
    expect(
      s3.requests.some(
        (r) =>
          r.method === "GET" && r.key === `uploads/${filename}` && r.range === "bytes=1000-1999",
      ),
    ).toBe(true);

    const visitor = (res.headers.get("set-cookie") ?? "").split(";")[0];
    const audio = await server.fetch(`/api/audio/${body.audioPath}`, {
      headers: { cookie: visitor, range: "bytes=0-3" },
    });
    expect(audio.status).toBe(206);
    expect([...new Uint8Array(await audio.arrayBuffer())]).toEqual([0x1a, 0x45, 0xdf, 0xa3]);
  });

  it("removes the object when the attachment is deleted", async () => {
    const res = await server.fetch("/api/requests", {
      method: "POST",
      body: multipart(validFields(), [
        { name: "weg.pdf", bytes: bigPdf(), type: "application/pdf" },
      ]),
    });
    const body = await res.json();
    const { id, filename } = body.attachments[0];
    expect(s3.objects.has(`uploads/${filename}`)).toBe(true);
    const token = await server.adminToken();
    const deleted = await server.fetch(`/api/requests/${body.id}/attachments/${id}`, {
      method: "DELETE",
      token,
    });
    expect(deleted.status).toBeLessThan(300);
    expect(s3.objects.has(`uploads/${filename}`)).toBe(false);
  });
});
