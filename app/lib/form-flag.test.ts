import { describe, expect, it } from "vitest";
import { formFlag } from "./form-flag";

describe("formFlag", () => {
  it('reads "1"/"0" as true/false and leaves anything else to the schema', () => {
    expect(formFlag("1")).toBe(true);
    expect(formFlag("0")).toBe(false);
    expect(formFlag(true)).toBe(true);
    expect(formFlag("ja")).toBe("ja");
    expect(formFlag(null)).toBeUndefined();
  });
});
