import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { closeDb } from "~/server/platform/db.server";
import { openStoredFile } from "~/server/uploads/store.server";
import { sweepUnreferencedUploads } from "~/server/uploads/sweep.server";
import { multipart, pdfBytes, validFields } from "./landing-fixtures";
import { startTestServer } from "./server";

afterAll(() => closeDb());

describe("upload sweep", () => {
  it("removes unreferenced files and stale parts older than an hour, keeps referenced ones", async () => {
    const server = await startTestServer({ SUBMISSION_RATE_LIMIT: "100/1h" });
    let kept: string;
    try {
      const res = await server.fetch("/api/requests", {
        method: "POST",
        body: multipart(validFields(), [{ name: "a.pdf", bytes: pdfBytes() }]),
      });
      kept = (await res.json()).attachments[0].filename;
    } finally {
      await server.close();
    }
    // An orphan as a crash between writing files and the row would leave it, and a stale part.
    const { createFsFileStorage } = await import("@remix-run/file-storage/fs");
    const storage = createFsFileStorage(path.join(process.env.UPLOADS_DIR as string, "files"));
    const orphan = "0123456789abcdef0123456789abcdef.pdf";
    const fresh = "fedcba9876543210fedcba9876543210.pdf";
    const old = Date.now() - 2 * 3600_000;
    await storage.set(
      orphan,
      new File([new Uint8Array(pdfBytes())], "o.pdf", { lastModified: old }),
    );
    await storage.set(
      fresh,
      new File([new Uint8Array(pdfBytes())], "f.pdf", { lastModified: Date.now() }),
    );
    const incoming = path.join(process.env.UPLOADS_DIR as string, "incoming");
    mkdirSync(incoming, { recursive: true });
    const stale = path.join(incoming, "stale.part");
    writeFileSync(stale, "x");
    utimesSync(stale, old / 1000, old / 1000);

    expect(await sweepUnreferencedUploads()).toBe(2);
    expect(await openStoredFile(orphan)).toBeNull();
    expect(await openStoredFile(fresh)).not.toBeNull();
    expect(await openStoredFile(kept)).not.toBeNull();
  });
});
