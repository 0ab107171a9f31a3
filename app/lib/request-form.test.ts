import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { normalizePhone, phoneError, RequestFormSchema, requestFormMessages } from "./request-form";

const valid = {
  name: "Anna Beispiel",
  email: "anna@example.com",
  phone: "+49 123 456789",
  companyDescription: "Wir sind eine kleine Bäckerei in Köln.",
};

function parse(values: Record<string, string>) {
  const form = new FormData();
  for (const [k, v] of Object.entries(values)) form.set(k, v);
  return parseWithZod(form, { schema: RequestFormSchema });
}

describe("phone", () => {
  it("normalises: trims, collapses whitespace, caps at 50", () => {
    expect(normalizePhone("  +49   123\t456  ")).toBe("+49 123 456");
    expect(normalizePhone("1".repeat(60))).toHaveLength(50);
  });

  it("accepts the spec's examples and rejects bad formats", () => {
    expect(phoneError("+49 123 456789")).toBeNull();
    expect(phoneError("0123 456789-1234")).toBeNull();
    expect(phoneError("(0221) 12.34")).toBe(requestFormMessages.phoneFormat);
    expect(phoneError("0221 (12) 34.5")).toBeNull();
    expect(phoneError("1234")).toBe(requestFormMessages.phoneFormat);
    expect(phoneError("+49 abc 123")).toBe(requestFormMessages.phoneFormat);
    expect(phoneError("   ")).toBe(requestFormMessages.phoneRequired);
  });
});

describe("RequestFormSchema", () => {
  it("accepts a valid submission and normalises the phone", () => {
    const result = parse({ ...valid, phone: "  +49  123 456789 " });
    expect(result.status).toBe("success");
    if (result.status === "success") {
      expect(result.value.phone).toBe("+49 123 456789");
      expect(result.value.description).toBe("");
    }
  });

  it("gives the German messages", () => {
    const result = parse({ companyDescription: "zu kurz", email: "kein-email" });
    expect(result.status).toBe("error");
    const errors = result.reply().error ?? {};
    expect(errors.name).toEqual([requestFormMessages.nameRequired]);
    expect(errors.email).toEqual([requestFormMessages.emailInvalid]);
    expect(errors.phone).toEqual([requestFormMessages.phoneRequired]);
    expect(errors.companyDescription).toEqual([requestFormMessages.companyTooShort]);
  });

  it("requires at least 20 characters of company description", () => {
    expect(parse({ ...valid, companyDescription: "x".repeat(19) }).status).toBe("error");
    expect(parse({ ...valid, companyDescription: "x".repeat(20) }).status).toBe("success");
  });
});
