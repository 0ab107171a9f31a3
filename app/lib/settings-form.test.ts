import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { ConfigurationSchema, DEFAULT_CONFIGURATION } from "./configuration";
import { isNumberSettingPath as isSettingsNumberField } from "./setting-ranges";
import {
  configurationFromSettings,
  SETTINGS_SECTIONS,
  SettingsFormSchema,
  settingsFormDefaults,
} from "./settings-form";

/** A complete settings post (the defaults), with `entries` set over it (repeated names appended). */
function post(entries: [string, string][] = [], drop: string[] = []) {
  const form = new FormData();
  for (const s of SETTINGS_SECTIONS) form.append("section", s);
  const base: [string, string][] = [
    ["uploadSettings.maxFilesPerRequest", "5"],
    ["uploadSettings.maxFileSizeMB", "10"],
    ["uploadSettings.maxTotalSizeMB", "50"],
    ["bookingLeadTime.days", "1"],
    ["bookingLeadTime.hours", "0"],
    ["retention.requestMonths", "24"],
    ["retention.requestAction", "delete"],
    ["retention.outboxDays", "30"],
    ["retention.auditDays", "365"],
    ["spam.quarantineDays", "30"],
    ["spam.heldBookingsPerDay", "3"],
    ["ai.dailyLimit", "200"],
  ];
  const set = new Set(entries.map(([k]) => k));
  for (const [k, v] of base) if (!set.has(k) && !drop.includes(k)) form.append(k, v);
  for (const [k, v] of entries) form.append(k, v);
  return form;
}
const parse = (form: FormData) => parseWithZod(form, { schema: SettingsFormSchema });
const errorsOf = (form: FormData) => {
  const submission = parse(form);
  return submission.status === "success" ? {} : (submission.error ?? {});
};

describe("external addresses (a Conform list)", () => {
  it("applies the spec's three rules, each at its address", () => {
    const emails = (...list: string[]) =>
      post(list.map((e, i) => [`emailNotifications.externalEmails[${i}]`, e]));
    expect(errorsOf(emails("  "))).toEqual({
      "emailNotifications.externalEmails[0]": ["Bitte geben Sie eine E-Mail-Adresse ein!"],
    });
    expect(errorsOf(emails("kein-at"))).toEqual({
      "emailNotifications.externalEmails[0]": ["Bitte geben Sie eine gültige E-Mail-Adresse ein!"],
    });
    expect(errorsOf(emails("a@b.de", "A@B.de"))).toEqual({
      "emailNotifications.externalEmails[1]": ["Diese E-Mail-Adresse ist bereits hinzugefügt!"],
    });
    const ok = parse(emails("a@b.de", " c@d.de "));
    expect(ok.status).toBe("success");
    if (ok.status === "success")
      expect(ok.value.emailNotifications.externalEmails).toEqual(["a@b.de", "c@d.de"]);
  });
});

describe("spam blocklist (a Conform list) and budgets", () => {
  const entries = (...list: string[]) => post(list.map((e, i) => [`spam.blocklist[${i}]`, e]));
  it("accepts e-mail addresses, domain wildcards, IP addresses and CIDR ranges", () => {
    const ok = parse(
      entries(" Spam@Example.com ", "*.spam.test", "192.0.2.7", "198.51.100.0/24", "2001:db8::/32"),
    );
    expect(ok.status).toBe("success");
    if (ok.status === "success")
      expect(ok.value.spam).toEqual({
        blocklist: [
          "spam@example.com",
          "*.spam.test",
          "192.0.2.7",
          "198.51.100.0/24",
          "2001:db8::/32",
        ],
        quarantineDays: 30,
        heldBookingsPerDay: 3,
      });
  });
  it("refuses each bad entry at its row with its German message, and a duplicate", () => {
    expect(errorsOf(entries("ok.test", "", "a@", "192.0.2.0/33", "1.2.3", "ex ample.com"))).toEqual(
      {
        "spam.blocklist[1]": ["Bitte geben Sie einen Eintrag ein oder entfernen Sie die Zeile."],
        "spam.blocklist[2]": [
          "Bitte geben Sie eine gültige E-Mail-Adresse ein, z. B. anna@example.com oder *@example.com.",
        ],
        "spam.blocklist[3]": [
          "Bitte geben Sie einen gültigen CIDR-Bereich ein, z. B. 192.0.2.0/24 oder 2001:db8::/32.",
        ],
        "spam.blocklist[4]": [
          "Bitte geben Sie eine gültige IP-Adresse ein, z. B. 192.0.2.7 oder 2001:db8::1.",
        ],
        "spam.blocklist[5]": [
          "Bitte geben Sie eine gültige Domain ohne Leerzeichen ein, z. B. example.com oder *.example.com.",
        ],
      },
    );
    // Duplicates are named once every entry is valid (the list's own check).
    expect(errorsOf(entries("ok.test", "2001:db8::1", "OK.test"))).toEqual({
      "spam.blocklist[2]": ["Dieser Eintrag steht bereits in der Liste."],
    });
  });
  it("keeps the quarantine days and the AI limit in their ranges", () => {
    expect(
      errorsOf(
        post([
          ["spam.quarantineDays", "0"],
          ["ai.dailyLimit", "100001"],
        ]),
      ),
    ).toEqual({
      "spam.quarantineDays": ["Bitte geben Sie eine ganze Zahl von 1 bis 365 ein."],
      "ai.dailyLimit": ["Bitte geben Sie eine ganze Zahl von 0 bis 100000 ein."],
    });
    const zero = parse(post([["ai.dailyLimit", "0"]]));
    expect(zero.status === "success" && zero.value.ai).toEqual({ dailyLimit: 0 });
  });
  it("takes the transcription budget in its range; a post without it keeps the stored one", () => {
    expect(errorsOf(post([["transcription.dailyLimit", "-1"]]))).toEqual({
      "transcription.dailyLimit": ["Bitte geben Sie eine ganze Zahl von 0 bis 100000 ein."],
    });
    const set = parse(post([["transcription.dailyLimit", "7"]]));
    expect(set.status).toBe("success");
    if (set.status !== "success") return;
    expect(configurationFromSettings(set.value, []).transcription).toEqual({ dailyLimit: 7 });
    const without = parse(post());
    expect(without.status).toBe("success");
    if (without.status !== "success") return;
    expect("transcription" in configurationFromSettings(without.value, [])).toBe(false);
    expect(settingsFormDefaults(DEFAULT_CONFIGURATION).transcription).toEqual({ dailyLimit: 100 });
  });
  it("applies Conform's insert and remove intents to the list", () => {
    const form = entries("a.test", "b.test");
    form.set(
      "__intent__",
      JSON.stringify({ type: "remove", payload: { name: "spam.blocklist", index: 0 } }),
    );
    expect(parse(form).payload.spam).toMatchObject({ blocklist: ["b.test"] });
  });
});

describe("preparation fields (a Conform list)", () => {
  const row = (i: number, f: Record<string, string>) =>
    Object.entries(f).map(([k, v]): [string, string] => [`preparationFields[${i}].${k}`, v]);

  it("keeps only letters and digits in a new row's name and gives it the highest id + 1", () => {
    const result = parse(
      post([
        ...row(0, { id: "7", name: "a", label: "A" }),
        ...row(1, { name: "Ziel gruppe-2!", label: " Zielgruppe " }),
      ]),
    );
    expect(result.status).toBe("success");
    if (result.status !== "success") return;
    expect(result.value.preparationFields).toEqual([
      { id: 7, name: "a", label: "A", placeholder: "" },
      { id: 8, name: "Zielgruppe2", label: "Zielgruppe", placeholder: "" },
    ]);
  });
  it("needs name and label, and a name only once", () => {
    expect(errorsOf(post(row(0, { name: "!!", label: "X" })))).toEqual({
      "preparationFields[0].name": ["Bitte füllen Sie mindestens Name und Label aus!"],
    });
    expect(errorsOf(post(row(0, { name: "x", label: " " })))).toEqual({
      "preparationFields[0].label": ["Bitte füllen Sie mindestens Name und Label aus!"],
    });
    expect(
      errorsOf(
        post([...row(0, { name: "ziel", label: "A" }), ...row(1, { name: "Ziel", label: "B" })]),
      ),
    ).toEqual({ "preparationFields[1].name": ["Ein Feld mit diesem Namen gibt es bereits."] });
  });
  it("applies Conform's insert, reorder and remove intents (what the server does without JS)", () => {
    const fields = [
      ...row(0, { id: "1", name: "a", label: "A" }),
      ...row(1, { id: "2", name: "b", label: "B" }),
    ];
    const intent = (value: object) => post([...fields, ["__intent__", JSON.stringify(value)]]);
    const names = (form: FormData) =>
      (parse(form).payload.preparationFields as { name?: string }[]).map((f) => f?.name);
    expect(
      names(
        intent({
          type: "insert",
          payload: { name: "preparationFields", defaultValue: { name: "", label: "" } },
        }),
      ),
    ).toEqual(["a", "b", ""]);
    expect(
      names(intent({ type: "reorder", payload: { name: "preparationFields", from: 1, to: 0 } })),
    ).toEqual(["b", "a"]);
    expect(
      names(intent({ type: "remove", payload: { name: "preparationFields", index: 0 } })),
    ).toEqual(["b"]);
    // A list edit is never a save.
    expect(
      parse(intent({ type: "remove", payload: { name: "preparationFields", index: 0 } })).status,
    ).toBeUndefined();
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
  it("clamps upload settings and lead time (the API's way)", () => {
    const parsed = ConfigurationSchema.parse({
      uploadSettings: {
        maxFilesPerRequest: "99",
        maxFileSizeMB: "0",
        maxTotalSizeMB: "5",
        allowedImageTypes: ["png", "exe"],
        allowedDocumentTypes: ["pdf"],
      },
      bookingLeadTime: { days: "400", hours: "-3" },
    });
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
    const admins = [{ id: 2, username: "b", email: "b@example.com" }];
    const entries: [string, string][] = [
      ["emailNotifications.enabled", "on"],
      ["emailNotifications.adminIds", "2"],
      ["emailNotifications.adminIds", "99"],
      ["appointmentEventType", ""],
    ];
    const saved = (form: FormData) => {
      const submission = parse(form);
      if (submission.status !== "success") throw new Error("refused");
      return ConfigurationSchema.parse({
        ...configurationFromSettings(submission.value, admins),
      });
    };
    const parsed = saved(post(entries));
    expect(parsed.emailNotifications.adminEmails).toEqual([
      { id: 2, username: "b", email: "b@example.com" },
    ]);
    expect(parsed.appointmentEventType).toBeNull();
    // The booking notice is its own setting, off unless ticked.
    expect(parsed.emailNotifications.bookingNotice).toBe(false);
    const ticked = saved(post([...entries, ["emailNotifications.bookingNotice", "on"]]));
    expect(ticked.emailNotifications.bookingNotice).toBe(true);
  });
  it("shows a configuration in the form and saves it unchanged", () => {
    const defaults = settingsFormDefaults(DEFAULT_CONFIGURATION);
    expect(defaults.emailNotifications.adminIds).toEqual([]);
    expect(defaults).not.toHaveProperty("webhooks");
    const value = SettingsFormSchema.parse(defaults);
    const { webhooks, ...rest } = DEFAULT_CONFIGURATION;
    expect(
      ConfigurationSchema.parse({ ...configurationFromSettings(value, []), webhooks }),
    ).toEqual({ ...rest, webhooks });
  });
});

describe("number fields", () => {
  it("refuses empty, fractional and out-of-range numbers with the German range message", () => {
    const form = post([
      ["uploadSettings.maxFilesPerRequest", "5"],
      ["uploadSettings.maxFileSizeMB", "0"],
      ["uploadSettings.maxTotalSizeMB", ""],
      ["bookingLeadTime.days", "1.5"],
      ["bookingLeadTime.hours", "24"],
      ["retention.requestMonths", "120"],
      ["retention.outboxDays", "abc"],
      ["retention.auditDays", "29"],
    ]);
    expect(errorsOf(form)).toEqual({
      "uploadSettings.maxFileSizeMB": ["Bitte geben Sie eine ganze Zahl von 1 bis 25 ein."],
      "uploadSettings.maxTotalSizeMB": ["Bitte geben Sie eine ganze Zahl von 10 bis 100 ein."],
      "bookingLeadTime.days": ["Bitte geben Sie eine ganze Zahl von 0 bis 365 ein."],
      "retention.outboxDays": ["Bitte geben Sie eine ganze Zahl von 1 bis 365 ein."],
      "retention.auditDays": ["Bitte geben Sie eine ganze Zahl von 30 bis 3650 ein."],
    });
    // In the page's order: the first refused field is the one focused.
    expect(Object.keys(errorsOf(form))[0]).toBe("uploadSettings.maxFileSizeMB");
    // A number left out of the post is refused like an empty one (Conform cannot tell them apart).
    expect(errorsOf(post([], ["retention.auditDays"]))).toEqual({
      "retention.auditDays": ["Bitte geben Sie eine ganze Zahl von 30 bis 3650 ein."],
    });
    expect(errorsOf(post([["retention.auditDays", " 30 "]]))).toEqual({});
    expect(isSettingsNumberField("retention.auditDays")).toBe(true);
    expect(isSettingsNumberField("systemPrompt")).toBe(false);
  });
});
