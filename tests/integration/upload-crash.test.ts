import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { crashRound } from "../../scripts/crash-run.ts";

/** A port free right now (the spawned server binds it itself, so it cannot be port 0). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.on("error", reject);
  });
}

describe("kill -9 during concurrent uploads", () => {
  it("keeps every acknowledged submission byte-identical and nothing else after the restart", async () => {
    const result = await crashRound({ port: await freePort(), submissions: 60, killAfter: 20 });
    expect(result.answered).toBe(60);
    expect(result.acknowledged).toBeGreaterThan(0);
    expect(result.leftover).toEqual([]);
    expect(result.stored).toBe(result.acknowledged);
  }, 180_000);
});
