import { afterEach, describe, expect, it } from "vitest";
import { diskLow, freeDiskBytes } from "./disk.server";
import { env } from "./env.server";
import { testHooks } from "./test-hooks.server";

const MB = 1024 * 1024;
afterEach(() => testHooks.setFreeDiskReader(undefined));

describe("disk guard threshold", () => {
  it("is low strictly below DISK_MIN_FREE_MB (default 256 MB) of free space", () => {
    expect(env().DISK_MIN_FREE_MB).toBe(256);
    testHooks.setFreeDiskReader(() => 256 * MB);
    expect(diskLow()).toBe(false);
    testHooks.setFreeDiskReader(() => 256 * MB - 1);
    expect(diskLow()).toBe(true);
  });

  it("reads the real volume by default and never blocks on an unreadable one", () => {
    expect(freeDiskBytes()).toBeGreaterThan(0);
    testHooks.setFreeDiskReader(() => {
      throw new Error("statfs failed");
    });
    expect(freeDiskBytes()).toBe(Number.POSITIVE_INFINITY);
    expect(diskLow()).toBe(false);
  });
});
