import { describe, expect, it } from "vitest";
import { awaitingActivationText, awaitsActivation } from "./admin-users";

describe("accounts awaiting activation", () => {
  const at = new Date("2026-11-20T10:00:00.000Z");

  it("are inactive and have never been active (never activated, never logged in)", () => {
    expect(awaitsActivation({ isActive: false, activatedAt: null, lastLogin: null })).toBe(true);
    expect(awaitsActivation({ isActive: false, activatedAt: null, lastLogin: at })).toBe(false);
    expect(awaitsActivation({ isActive: true, activatedAt: null, lastLogin: null })).toBe(false);
    expect(awaitsActivation({ isActive: true, activatedAt: at, lastLogin: null })).toBe(false);
  });

  it("do not include an account activated and deactivated again before its first login", () => {
    expect(awaitsActivation({ isActive: false, activatedAt: at, lastLogin: null })).toBe(false);
    expect(awaitsActivation({ isActive: false, activatedAt: at, lastLogin: at })).toBe(false);
  });

  it("are counted in German singular and plural", () => {
    expect(awaitingActivationText(1)).toBe("1 Konto wartet auf Freischaltung");
    expect(awaitingActivationText(3)).toBe("3 Konten warten auf Freischaltung");
  });
});
