import { describe, expect, it } from "vitest";
import { ConfigurationSchema, DEFAULT_CONFIGURATION } from "./configuration";
import {
  addExternalEmail,
  addPreparationField,
  draftFromForm,
  isSettingsNumberField,
  settingsNumberError,
  settingsNumberErrors,
} from "./settings-form";

describe("addExternalEmail", () => {
  it("applies the spec's three rules", () => {
    expect(addExternalEmail([], "  ")).toEqual({
      ok: false,
      error: "Bitte geben Sie eine E-Mail-Adresse ein!",
    });
    expect(addExternalEmail([], "kein-at")).toEqual({
      ok: false,
      error: "Bitte geben Sie eine gültige E-Mail-Adresse ein!",
    });
    expect(addExternalEmail(["a@b.de"], "A@B.de")).toEqual({
      ok: false,
      error: "Diese E-Mail-Adresse ist bereits hinzugefügt!",
    });
    expect(addExternalEmail(["a@b.de"], " c@d.de ")).toEqual({
      ok: true,
      list: ["a@b.de", "c@d.de"],
    });
  });
});

describe("addPreparationField", () => {
  it("keeps only letters and digits in the name and takes the highest id + 1", () => {
    const fields = [{ id: 7, name: "a", label: "A", placeholder: "" }];
    const result = addPreparationField(fields, {
      name: "Ziel gruppe-2!",
      label: " Zielgruppe ",
      placeholder: "",
    });
    expect(result).toEqual({
      ok: true,
      fields: [...fields, { id: 8, name: "Zielgruppe2", label: "Zielgruppe", placeholder: "" }],
    });
  });
  it("needs name and label", () => {
    expect(addPreparationField([], { name: "!!", label: "X" })).toEqual({
      ok: false,
      error: "Bitte füllen Sie mindestens Name und Label aus!",
    });
    expect(addPreparationField([], { name: "x", label: " " })).toEqual({
      ok: false,
      error: "Bitte füllen Sie mindestens Name und Label aus!",
    });
  });
});

describe("configuration schema", () => {
  it("has the spec's defaults", () => {
    expect(DEFAULT_CONFIGURATION.uploadSettings).toMatchObject({
      maxFilesPerRequest: 5,
      maxFileSizeMB: 10,
      maxTotalSizeMB: 50,
    });
    expect(DEFAULT_CONFIGURATION.bookingLeadTime).toEqual({ days: 1, hours: 0 });
    expect(DEFAULT_CONFIGURATION.appointmentEventType).toBe("demo");
  });
  it("clamps upload settings and lead time", () => {
    const form = new FormData();
    for (const [k, v] of [
      ["maxFilesPerRequest", "99"],
      ["maxFileSizeMB", "0"],
      ["maxTotalSizeMB", "5"],
      ["leadDays", "400"],
      ["leadHours", "-3"],
      ["imageType", "png"],
      ["imageType", "exe"],
      ["documentType", "pdf"],
    ])
      form.append(k, v);
    const parsed = ConfigurationSchema.parse(draftFromForm(form, []));
    expect(parsed.uploadSettings).toEqual({
      maxFilesPerRequest: 10,
      maxFileSizeMB: 1,
      maxTotalSizeMB: 10,
      allowedImageTypes: ["png"],
      allowedDocumentTypes: ["pdf"],
    });
    expect(parsed.bookingLeadTime).toEqual({ days: 365, hours: 0 });
  });
  it("keeps only known admins for notifications and empties the event type to null", () => {
    const form = new FormData();
    form.append("notificationsEnabled", "on");
    form.append("notifyAdmin", "2");
    form.append("notifyAdmin", "99");
    form.append("appointmentEventType", "");
    const draft = draftFromForm(form, [{ id: 2, username: "b", email: "b@example.com" }]);
    const parsed = ConfigurationSchema.parse(draft);
    expect(parsed.emailNotifications.adminEmails).toEqual([
      { id: 2, username: "b", email: "b@example.com" },
    ]);
    expect(parsed.appointmentEventType).toBeNull();
    // The booking notice is its own setting, off unless ticked.
    expect(parsed.emailNotifications.bookingNotice).toBe(false);
    form.append("bookingNotice", "on");
    const ticked = ConfigurationSchema.parse(
      draftFromForm(form, [{ id: 2, username: "b", email: "b@example.com" }]),
    );
    expect(ticked.emailNotifications.bookingNotice).toBe(true);
  });
});

describe("settingsNumberErrors", () => {
  it("refuses empty, fractional and out-of-range numbers with the German range message", () => {
    const form = new FormData();
    form.set("maxFilesPerRequest", "5");
    form.set("maxFileSizeMB", "0");
    form.set("maxTotalSizeMB", "");
    form.set("leadDays", "1.5");
    form.set("leadHours", "24");
    form.set("retentionMonths", "120");
    form.set("outboxDays", "abc");
    form.set("auditDays", "29");
    expect(settingsNumberErrors(form)).toEqual({
      maxFileSizeMB: ["Bitte geben Sie eine ganze Zahl von 1 bis 25 ein."],
      maxTotalSizeMB: ["Bitte geben Sie eine ganze Zahl von 10 bis 100 ein."],
      leadDays: ["Bitte geben Sie eine ganze Zahl von 0 bis 365 ein."],
      outboxDays: ["Bitte geben Sie eine ganze Zahl von 1 bis 365 ein."],
      auditDays: ["Bitte geben Sie eine ganze Zahl von 30 bis 3650 ein."],
    });
    expect(Object.keys(settingsNumberErrors(form))[0]).toBe("maxFileSizeMB");
    form.delete("maxFileSizeMB");
    expect(settingsNumberErrors(form)).not.toHaveProperty("maxFileSizeMB");
    expect(settingsNumberError("auditDays", " 30 ")).toBeNull();
    expect(isSettingsNumberField("auditDays")).toBe(true);
    expect(isSettingsNumberField("systemPrompt")).toBe(false);
  });
});
