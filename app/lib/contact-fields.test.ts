import { describe, expect, it } from "vitest";
import { ALTCHA_FIELD } from "./altcha";
import { ATTRIBUTION_FIELDS } from "./attribution";
import {
  CONTACT_FIELD_NAMES,
  CONTACT_FIELDS,
  contactFieldsOf,
  EXTRA_CONTACT_FIELDS,
  requiredMessage,
  tooShortMessage,
} from "./contact-fields";
import { EMBED_TOKEN_FIELD } from "./embed";
import { HONEYPOT_FIELD } from "./honeypot";
import { requestFormMessages } from "./request-form";

describe("the contact form's fields (ADR 312)", () => {
  it("are the spec's five, in the form's order, with the spec's messages", () => {
    expect(CONTACT_FIELD_NAMES).toEqual([
      "name",
      "email",
      "phone",
      "companyDescription",
      "description",
    ]);
    expect(EXTRA_CONTACT_FIELDS).toEqual([]);
    expect(requestFormMessages.companyTooShort).toBe(
      "Bitte beschreibe dein Unternehmen mit mindestens 20 Zeichen",
    );
    expect(requestFormMessages.nameRequired).toBe("Name ist erforderlich");
    expect(requestFormMessages.phoneFormat).toContain("Mindestens 5 Zeichen");
    expect(CONTACT_FIELDS.companyDescription.min).toBe(20);
  });

  it("never take the name of another field of the form (a clash would drop or refuse it)", () => {
    const others = [
      HONEYPOT_FIELD,
      ALTCHA_FIELD,
      EMBED_TOKEN_FIELD,
      "affiliateCode",
      "attachments",
      "audio",
      ...Object.values(ATTRIBUTION_FIELDS),
    ];
    for (const name of CONTACT_FIELD_NAMES) expect(others).not.toContain(name);
  });

  it("derive a new field's messages and place from its entry alone", () => {
    const more = contactFieldsOf({
      ...CONTACT_FIELDS,
      branche: { label: "Branche", min: 3, max: 80, input: {} },
    });
    expect(more.CONTACT_FIELD_NAMES.at(-1)).toBe("branche");
    expect(more.EXTRA_CONTACT_FIELDS).toEqual(["branche"]);
    expect(more.requiredMessage("branche")).toBe("Branche ist erforderlich");
    expect(more.tooShortMessage("branche")).toBe("Mindestens 3 Zeichen");
    expect(more.emptyContactValues()).toMatchObject({ name: "", branche: "" });
    expect(requiredMessage("phone")).toBe("Telefonnummer ist erforderlich");
    expect(tooShortMessage("companyDescription")).toBe(requestFormMessages.companyTooShort);
  });
});
