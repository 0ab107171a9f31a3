import { describe, expect, it } from "vitest";
import {
  errorSummaryEntries,
  fieldMessages,
  joinGerman,
  submitBlockedReason,
} from "./contact-feedback";

describe("contact form feedback", () => {
  it("joins German lists", () => {
    expect(joinGerman([])).toBe("");
    expect(joinGerman(["a"])).toBe("a");
    expect(joinGerman(["a", "b"])).toBe("a und b");
    expect(joinGerman(["a", "b", "c"])).toBe("a, b und c");
  });

  it("says why the submit is disabled, and nothing once it may be sent", () => {
    const empty = { name: "", email: "", phone: "" };
    expect(submitBlockedReason(empty, false)).toBe(
      "Zum Absenden fehlen noch dein Name, deine E-Mail-Adresse und deine Telefonnummer.",
    );
    expect(submitBlockedReason({ name: "Ina", email: "ina@example.com", phone: "12" }, true)).toBe(
      "Zum Absenden fehlt noch eine gültige Telefonnummer.",
    );
    expect(
      submitBlockedReason({ name: " ", email: "ina@example.com", phone: "0221 987654" }, false),
    ).toBe("Zum Absenden fehlt noch dein Name.");
    expect(
      submitBlockedReason({ name: "Ina", email: "ina@example.com", phone: "0221 987654" }, false),
    ).toBeNull();
  });

  it("lists one entry per invalid field in the form's order", () => {
    expect(
      errorSummaryEntries({
        companyDescription: ["kurz", "zweite"],
        name: ["Name fehlt"],
        attachments: ["nicht hier"],
        email: [],
      }),
    ).toEqual([
      { field: "name", message: "Name fehlt" },
      { field: "companyDescription", message: "kurz" },
    ]);
  });

  it("shows the company description's messages at the field too (also below the minimum)", () => {
    expect(fieldMessages("companyDescription", ["zu kurz"], "Zu kurz")).toEqual(["zu kurz"]);
    expect(fieldMessages("companyDescription", ["fehlt"], "")).toEqual(["fehlt"]);
    expect(fieldMessages("companyDescription", ["zu lang"], "x".repeat(20))).toEqual(["zu lang"]);
    expect(fieldMessages("phone", ["falsch"], "")).toEqual(["falsch"]);
    expect(fieldMessages("phone", [], "")).toBeUndefined();
  });
});
