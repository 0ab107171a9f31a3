import { describe, expect, it } from "vitest";
import { awaitingActivationText, awaitsActivation } from "./admin-users";

describe("accounts awaiting activation", () => {
  it("are inactive and have never logged in", () => {
    expect(awaitsActivation({ is_active: false, last_login: null })).toBe(true);
    expect(awaitsActivation({ is_active: false, last_login: "2026-11-20T10:00:00.000Z" })).toBe(
      false,
    );
    expect(awaitsActivation({ is_active: true, last_login: null })).toBe(false);
  });

  it("are counted in German singular and plural", () => {
    expect(awaitingActivationText(1)).toBe("1 Konto wartet auf Freischaltung");
    expect(awaitingActivationText(3)).toBe("3 Konten warten auf Freischaltung");
  });
});
