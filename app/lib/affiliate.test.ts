import { describe, expect, it } from "vitest";
import { AffiliateCreateSchema, CODE_ALPHABET, generateAffiliateCode } from "./affiliate";

describe("generateAffiliateCode", () => {
  it("is upper-case, 8 characters, without ambiguous characters", () => {
    for (let i = 0; i < 200; i++) {
      const code = generateAffiliateCode();
      expect(code).toMatch(/^[A-Z2-9]{8}$/);
      expect(code).not.toMatch(/[01OIL]/);
    }
    expect(CODE_ALPHABET).not.toMatch(/[01OIL]/);
  });
  it("uses the random source", () => {
    expect(generateAffiliateCode(4, () => 0)).toBe("AAAA");
  });
});

describe("AffiliateCreateSchema", () => {
  it("needs all fields with the spec's message", () => {
    const result = AffiliateCreateSchema.safeParse({ name: "", email: "", discountValue: "" });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toContain(
      "Bitte füllen Sie alle Felder aus!",
    );
  });
  it("answers an empty discount with the spec's message, not the range message", () => {
    for (const discountValue of ["", "  ", undefined, null]) {
      const result = AffiliateCreateSchema.safeParse({
        name: "P",
        email: "p@example.com",
        discountValue,
      });
      expect(result.error?.issues.map((i) => i.message)).toEqual([
        "Bitte füllen Sie alle Felder aus!",
      ]);
    }
  });
  it("takes a discount from 1 to 100", () => {
    expect(
      AffiliateCreateSchema.safeParse({ name: "P", email: "p@example.com", discountValue: "0" })
        .success,
    ).toBe(false);
    expect(
      AffiliateCreateSchema.safeParse({ name: "P", email: "p@example.com", discountValue: "101" })
        .success,
    ).toBe(false);
    expect(
      AffiliateCreateSchema.parse({ name: " P ", email: "p@example.com", discountValue: "15" }),
    ).toEqual({ name: "P", email: "p@example.com", discountValue: 15 });
  });
});
