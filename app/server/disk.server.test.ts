import { afterEach, describe, expect, it } from "vitest";
import { diskLow, freeDiskBytes, setFreeDiskReader } from "./disk.server";
import { env } from "./env.server";

const MB = 1024 * 1024;
afterEach(() => setFreeDiskReader(undefined));

describe("disk guard threshold", () => {
  it("is low strictly below DISK_MIN_FREE_MB (default 256 MB) of free space", () => {
    expect(env().DISK_MIN_FREE_MB).toBe(256);
    setFreeDiskReader(() => 256 * MB);
    expect(diskLow()).toBe(false);
    setFreeDiskReader(() => 256 * MB - 1);
    expect(diskLow()).toBe(true);
  });

  it("reads the real volume by default and never blocks on an unreadable one", () => {
    expect(freeDiskBytes()).toBeGreaterThan(0);
    setFreeDiskReader(() => {
      throw new Error("statfs failed");
    });
    expect(freeDiskBytes()).toBe(Number.POSITIVE_INFINITY);
    expect(diskLow()).toBe(false);
  });
});
