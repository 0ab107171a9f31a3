import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { ConfigurationSchema, DEFAULT_CONFIGURATION } from "./configuration";
import { configurationFromSettings, SETTINGS_SECTIONS, SettingsFormSchema } from "./settings-form";

const BASE: [string, string][] = [
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
  ["scheduling.slotStepMinutes", "0"],
  ["scheduling.bufferBeforeMinutes", "0"],
  ["scheduling.bufferAfterMinutes", "15"],
  ["scheduling.maxPerDay", "4"],
  ["scheduling.horizonDays", "30"],
];

function post(entries: [string, string][]) {
  const form = new FormData();
  for (const s of SETTINGS_SECTIONS) form.append("section", s);
  for (const [k, v] of [...BASE, ...entries]) form.append(k, v);
  return parseWithZod(form, { schema: SettingsFormSchema });
}

describe("the week in the settings form (section Terminbuchung)", () => {
  it("saves intervals per weekday (sorted), holidays and blocked days", () => {
    const submission = post([
      ["scheduling.weeklyHours.mon[0].from", "13:00"],
      ["scheduling.weeklyHours.mon[0].to", "17:00"],
      ["scheduling.weeklyHours.mon[1].from", "09:00"],
      ["scheduling.weeklyHours.mon[1].to", "12:00"],
      ["scheduling.weeklyHours.sat[0].from", "10:00"],
      ["scheduling.weeklyHours.sat[0].to", "14:00"],
      ["scheduling.publicHolidays", "on"],
      ["scheduling.holidayState", "BY"],
      ["scheduling.blockNewYearsEve", "on"],
      ["scheduling.blockedDays[0].from", "2026-08-03"],
      ["scheduling.blockedDays[0].to", "2026-08-14"],
      ["scheduling.blockedDays[0].note", "Betriebsurlaub"],
    ]);
    expect(submission.status).toBe("success");
    if (submission.status !== "success") return;
    const config = ConfigurationSchema.parse({
      ...DEFAULT_CONFIGURATION,
      ...configurationFromSettings(submission.value, []),
    });
    expect(config.scheduling).toMatchObject({
      weeklyHours: {
        mon: [
          { from: "09:00", to: "12:00" },
          { from: "13:00", to: "17:00" },
        ],
        tue: [],
        sat: [{ from: "10:00", to: "14:00" }],
      },
      bufferAfterMinutes: 15,
      maxPerDay: 4,
      horizonDays: 30,
      publicHolidays: true,
      holidayState: "BY",
      blockChristmasEve: false,
      blockNewYearsEve: true,
      blockedDays: [{ from: "2026-08-03", to: "2026-08-14", note: "Betriebsurlaub" }],
    });
  });

  it("refuses a broken interval, an overlap and a blocked range ending before it starts, at the field", () => {
    const submission = post([
      ["scheduling.weeklyHours.tue[0].from", "12:00"],
      ["scheduling.weeklyHours.tue[0].to", "09:00"],
      ["scheduling.weeklyHours.wed[0].from", "09:00"],
      ["scheduling.weeklyHours.wed[0].to", "12:00"],
      ["scheduling.weeklyHours.wed[1].from", "11:00"],
      ["scheduling.weeklyHours.wed[1].to", "13:00"],
      ["scheduling.blockedDays[0].from", "2026-08-14"],
      ["scheduling.blockedDays[0].to", "2026-08-03"],
      ["scheduling.maxPerDay", "99"],
    ]);
    if (submission.status !== "error") throw new Error("expected a refused post");
    expect(submission.error).toMatchObject({
      "scheduling.weeklyHours.tue[0].to": ["Bitte geben Sie eine Zeit von–bis an (bis nach von)."],
      "scheduling.weeklyHours.wed[1].from": [
        "Die Zeiten eines Tages dürfen sich nicht überschneiden.",
      ],
      "scheduling.blockedDays[0].to": ["Das Ende darf nicht vor dem Anfang liegen."],
      "scheduling.maxPerDay": ["Bitte geben Sie eine ganze Zahl von 0 bis 50 ein."],
    });
  });
});
