import { describe, expect, it } from "vitest";
import { emailKey, phoneKey } from "./contact-keys";

describe("contact keys", () => {
  it("e-mail: trimmed and lower-cased; nothing for an erased (empty) address", () => {
    expect(emailKey("  Anna.Beispiel@Example.COM ")).toBe("anna.beispiel@example.com");
    expect(emailKey("")).toBeNull();
  });
  it("phone: the same German number in every spelling gives one key", () => {
    const keys = ["+49 221 123456", "0221 123456", "0049 (221) 123-456", "+49-221-12.34.56"].map(
      phoneKey,
    );
    expect(new Set(keys)).toEqual(new Set(["49221123456"]));
  });
  it("phone: other countries stay apart; too short or empty gives nothing", () => {
    expect(phoneKey("+43 1 234567")).toBe("431234567");
    expect(phoneKey("+43 1 234567")).not.toBe(phoneKey("+49 1 234567"));
    expect(phoneKey("")).toBeNull();
    expect(phoneKey("12")).toBeNull();
  });
});
