import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { closeDb } from "~/server/platform/db.server";
import { storagePaths } from "~/server/storage/fs-storage.server";
import { fileStorage } from "~/server/storage/storage.server";
import {
  QUARANTINE_DAYS,
  quarantineRoot,
  restoreMarkerPath,
} from "~/server/uploads/quarantine.server";
import { openStoredFile } from "~/server/uploads/store.server";
import { bootSweep, sweepUnreferencedUploads } from "~/server/uploads/sweep.server";
import { multipart, pdfBytes, validFields } from "./landing-fixtures";
import { startTestServer } from "./server";

afterAll(() => closeDb());
afterEach(() => vi.restoreAllMocks());

const uploads = () => process.env.UPLOADS_DIR as string;
const filesRoot = () => path.join(uploads(), "files");

/** Every file below dir, relative to it. */
function allFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

function age(file: string, ms: number) {
  const t = (Date.now() - ms) / 1000;
  utimesSync(file, t, t);
}

/** Plants what a crash leaves behind (review's reproduction). */
function plantCrashLeftovers() {
  const shard = path.join(filesRoot(), "ab");
  mkdirSync(shard, { recursive: true });
  writeFileSync(path.join(shard, "deadbeef.meta.json"), '{"key":"0123456789abcdef01234567');
  writeFileSync(path.join(shard, "cafebabe.dat"), pdfBytes());
  const incoming = path.join(uploads(), "incoming");
  mkdirSync(incoming, { recursive: true });
  writeFileSync(path.join(incoming, "stale.part"), "x");
  age(path.join(incoming, "stale.part"), 3 * 3600_000);
  return [
    path.join(shard, "deadbeef.meta.json"),
    path.join(shard, "cafebabe.dat"),
    path.join(incoming, "stale.part"),
  ];
}

async function submitWithPdf(bytes: Buffer) {
  const server = await startTestServer({ SUBMISSION_RATE_LIMIT: "100/1h" });
  try {
    const res = await server.fetch("/api/requests", {
      method: "POST",
      body: multipart(validFields(), [{ name: "befund.pdf", bytes }]),
    });
    expect(res.status).toBe(201);
    return (await res.json()).attachments[0].filename as string;
  } finally {
    await server.close();
  }
}

describe("crash-safe upload storage", () => {
  it("boot sweep removes broken metadata, orphan content and stale parts, keeps referenced files", async () => {
    const bytes = pdfBytes(5000);
    const kept = await submitWithPdf(bytes);
    const keptPaths = storagePaths(filesRoot(), kept);
    const before = readFileSync(keptPaths.metaPath);
    const planted = plantCrashLeftovers();
    const warnings = vi.spyOn(console, "warn").mockImplementation(() => undefined);

    expect(await bootSweep()).toBe(3);

    for (const file of planted) expect(existsSync(file)).toBe(false);
    expect(readFileSync(keptPaths.filePath).equals(bytes)).toBe(true);
    expect(readFileSync(keptPaths.metaPath).equals(before)).toBe(true);
    const stored = await openStoredFile(kept);
    expect(Buffer.from(await (stored as File).arrayBuffer()).equals(bytes)).toBe(true);
    expect(allFiles(filesRoot())).toEqual(
      [keptPaths.filePath, keptPaths.metaPath].map((f) => path.relative(filesRoot(), f)).sort(),
    );
    expect(allFiles(path.join(uploads(), "incoming"))).toEqual([]);
    // Logged, without file names or anything from the form.
    const logged = warnings.mock.calls.flat().join("\n");
    expect(logged).toContain("defekte Metadaten");
    expect(logged).toContain("ohne Metadaten");
    for (const secret of ["deadbeef", "cafebabe", "befund", validFields().email]) {
      expect(logged).not.toContain(secret);
    }
  });

  it("never deletes the content of a file a row still names, even when its metadata broke", async () => {
    const bytes = pdfBytes(4000);
    const kept = await submitWithPdf(bytes);
    const { filePath, metaPath } = storagePaths(filesRoot(), kept);
    writeFileSync(metaPath, '{"key":"trunc');
    age(filePath, 60_000);
    age(metaPath, 60_000);
    const warnings = vi.spyOn(console, "warn").mockImplementation(() => undefined);

    await bootSweep();

    expect(readFileSync(filePath).equals(bytes)).toBe(true);
    expect(warnings.mock.calls.flat().join("\n")).toContain("noch verwendeten Datei");
  });

  it("the hourly sweep also empties quarantine folders older than the quarantine period", async () => {
    const old = path.join(
      quarantineRoot(),
      String(Date.now() - (QUARANTINE_DAYS + 1) * 86_400_000),
    );
    const young = path.join(quarantineRoot(), String(Date.now() - 86_400_000));
    for (const dir of [old, young]) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, "x.dat"), "x");
    }
    await sweepUnreferencedUploads();
    expect(existsSync(old)).toBe(false);
    expect(existsSync(young)).toBe(true);
    rmSync(young, { recursive: true });
  });

  it("the hourly sweep leaves fresh leftovers alone and removes them once older than an hour", async () => {
    const planted = plantCrashLeftovers();
    const fresh = planted.slice(0, 2);
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    expect(await sweepUnreferencedUploads()).toBe(1); // only the 3-hour-old part
    for (const file of fresh) expect(existsSync(file)).toBe(true);
    for (const file of fresh) age(file, 2 * 3600_000);
    expect(await sweepUnreferencedUploads()).toBe(2);
    for (const file of fresh) expect(existsSync(file)).toBe(false);
  });

  it("writes metadata atomically: an interrupted write leaves only a temp file the sweep removes", async () => {
    const key = "00112233445566778899aabbccddeeff.pdf";
    const { directory, metaPath } = storagePaths(filesRoot(), key);
    mkdirSync(directory, { recursive: true });
    const temp = `${metaPath}.0a0b0c.tmp`;
    writeFileSync(temp, '{"key":"0011');
    age(temp, 60_000);
    await fileStorage().set(key, new File([new Uint8Array(pdfBytes())], "n.pdf"));
    expect(JSON.parse(readFileSync(metaPath, "utf8")).key).toBe(key);
    expect(allFiles(directory).filter((f) => f.endsWith(".tmp"))).toEqual(
      [temp].map((f) => path.basename(f)),
    );
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    await bootSweep();
    expect(existsSync(temp)).toBe(false);
    expect(existsSync(metaPath)).toBe(false); // unreferenced and written before the "boot"
  });

  it("after a database restore, unreferenced stored files go to quarantine outside UPLOADS_DIR", async () => {
    const bytes = pdfBytes(3000);
    const key = "ffeeddccbbaa99887766554433221100.pdf";
    await fileStorage().set(key, new File([new Uint8Array(bytes)], "alt.pdf"));
    const { filePath } = storagePaths(filesRoot(), key);
    const old = path.join(
      quarantineRoot(),
      String(Date.now() - (QUARANTINE_DAYS + 1) * 86_400_000),
    );
    mkdirSync(old, { recursive: true });
    writeFileSync(path.join(old, "x.dat"), "x");
    writeFileSync(restoreMarkerPath(), "");

    expect(await bootSweep(Date.now() + 1)).toBe(1);

    expect(existsSync(filePath)).toBe(false);
    expect(existsSync(restoreMarkerPath())).toBe(false);
    expect(existsSync(old)).toBe(false);
    expect(path.relative(uploads(), quarantineRoot()).startsWith("..")).toBe(true);
    const moved = allFiles(quarantineRoot());
    expect(moved.map((f) => path.basename(f)).sort()).toEqual(
      [path.basename(filePath), path.basename(storagePaths(filesRoot(), key).metaPath)].sort(),
    );
    const dat = moved.find((f) => f.endsWith(".dat")) as string;
    expect(readFileSync(path.join(quarantineRoot(), dat)).equals(bytes)).toBe(true);
  });
});
