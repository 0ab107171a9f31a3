import { describe, expect, it } from "vitest";
import { crashRound } from "../../scripts/crash-run.ts";

describe("kill -9 during concurrent uploads", () => {
  it("keeps every acknowledged submission byte-identical and nothing else after the restart", async () => {
    const port = Number(process.env.E2E_PORT_BASE ?? 4400) + 191;
    const result = await crashRound({ port, submissions: 60, killAfter: 20 });
    expect(result.answered).toBe(60);
    expect(result.acknowledged).toBeGreaterThan(0);
    expect(result.leftover).toEqual([]);
    expect(result.stored).toBe(result.acknowledged);
  }, 180_000);
});
