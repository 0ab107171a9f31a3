import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fieldErrorsOf } from "./field-errors";

describe("fieldErrorsOf", () => {
  const schema = z
    .object({
      name: z.string().min(1, "Name fehlt").max(3, "Zu lang"),
      upload: z.object({ maxFiles: z.number().int("Ganze Zahl") }),
    })
    .refine((v) => v.name !== "x", "Ungültig");

  it("keys messages by the dotted path, several per field", () => {
    const r = schema.safeParse({ name: "", upload: { maxFiles: 1.5 } });
    expect(r.success).toBe(false);
    if (r.success) return;
    expect(fieldErrorsOf(r.error)).toEqual({
      name: ["Name fehlt"],
      "upload.maxFiles": ["Ganze Zahl"],
    });
  });

  it("puts errors about the whole input under 'form'", () => {
    const r = schema.safeParse({ name: "x", upload: { maxFiles: 1 } });
    expect(r.success).toBe(false);
    if (r.success) return;
    expect(fieldErrorsOf(r.error)).toEqual({ form: ["Ungültig"] });
  });
});
