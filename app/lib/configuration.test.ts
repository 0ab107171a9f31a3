import { describe, expect, it } from "vitest";
import {
  ConfigurationSchema,
  DEFAULT_CONFIGURATION,
  mergeConfigurationPatch,
} from "./configuration";

describe("mergeConfigurationPatch", () => {
  const stored = ConfigurationSchema.parse({
    systemPrompt: "Alt",
    emailNotifications: { enabled: true, adminEmails: [], externalEmails: ["chef@example.com"] },
  });

  it("keeps every key the patch leaves out", () => {
    const merged = ConfigurationSchema.parse(
      mergeConfigurationPatch(stored, { systemPrompt: "Neu" }),
    );
    expect(merged.systemPrompt).toBe("Neu");
    expect(merged.emailNotifications.externalEmails).toEqual(["chef@example.com"]);
    expect(merged.emailNotifications.enabled).toBe(true);
    expect(merged.preparationFields).toEqual(stored.preparationFields);
  });

  it("merges nested objects key by key and replaces lists", () => {
    const merged = ConfigurationSchema.parse(
      mergeConfigurationPatch(stored, { emailNotifications: { externalEmails: [] } }),
    );
    expect(merged.emailNotifications.enabled).toBe(true);
    expect(merged.emailNotifications.externalEmails).toEqual([]);
  });

  it("replaces a non-object value and ignores undefined", () => {
    expect(mergeConfigurationPatch({ a: { b: 1 } }, { a: null })).toEqual({ a: null });
    expect(mergeConfigurationPatch({ a: 1 }, { a: undefined })).toEqual({ a: 1 });
    expect(mergeConfigurationPatch(DEFAULT_CONFIGURATION, [])).toEqual([]);
  });
});
