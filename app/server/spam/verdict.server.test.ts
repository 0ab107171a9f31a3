import { afterEach, describe, expect, it, vi } from "vitest";
import { parseEnv } from "../platform/env.server";

// The verdict's switch (SPAM_PROTECTION) and the one rule it applies; the HTTP behaviour is in
// tests/integration/spam-quarantine.test.ts.
afterEach(() => {
  delete process.env.SPAM_PROTECTION;
  vi.resetModules();
});

async function verdictWith(value: string | undefined) {
  if (value === undefined) delete process.env.SPAM_PROTECTION;
  else process.env.SPAM_PROTECTION = value;
  vi.resetModules();
  const { spamVerdict } = await import("./verdict.server");
  return spamVerdict;
}

describe("SPAM_PROTECTION", () => {
  it("a blocklist hit is held and marked blocked: no script-free challenge (ADR 326)", async () => {
    const { saveConfiguration, getConfiguration } = await import(
      "../configuration/configuration.server"
    );
    expect(
      saveConfiguration({ ...getConfiguration(), spam: { blocklist: ["*@spam.example"] } }).ok,
    ).toBe(true);
    const spamVerdict = await verdictWith(undefined);
    expect(await spamVerdict(undefined, "bot@spam.example", "192.0.2.1")).toEqual({
      quarantine: true,
      solution: null,
      blocked: true,
    });
  });

  it("defaults to quarantine and refuses other values", () => {
    expect(parseEnv({ DATABASE_PATH: process.env.DATABASE_PATH }).SPAM_PROTECTION).toBe(
      "quarantine",
    );
    expect(() =>
      parseEnv({ DATABASE_PATH: process.env.DATABASE_PATH, SPAM_PROTECTION: "block" }),
    ).toThrow(/SPAM_PROTECTION/);
  });

  it("quarantine: a submission without a solution is held back", async () => {
    const spamVerdict = await verdictWith(undefined);
    expect(await spamVerdict(undefined, "anna@example.com", "192.0.2.1")).toEqual({
      quarantine: true,
      solution: null,
      blocked: false,
    });
  });

  it("off: every submission takes the normal flow, as before", async () => {
    const spamVerdict = await verdictWith("off");
    expect(await spamVerdict(undefined, "anna@example.com", "192.0.2.1")).toEqual({
      quarantine: false,
      solution: null,
      blocked: false,
    });
  });
});
