import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { ConfigurationSchema, DEFAULT_CONFIGURATION } from "./configuration";
import {
  isNumberSettingPath,
  NUMBER_SETTINGS,
  type NumberSettingPath,
  settingRangeMessage,
} from "./setting-ranges";
import { SETTINGS_SECTIONS, SettingsFormSchema } from "./settings-form";

// ADR 311: one table of ranges, two faces. For every entry the configuration (the API) clamps
// and the settings page refuses with the German message, both at the entry's path.

const paths = Object.keys(NUMBER_SETTINGS) as NumberSettingPath[];

/** The value at a dotted path of a configuration-shaped object. */
const at = (value: unknown, path: string) =>
  path.split(".").reduce<unknown>((v, key) => (v as Record<string, unknown>)?.[key], value);

/** A copy of the default configuration with `path` set to `value` (the API's PATCH body). */
function configWith(path: string, value: unknown) {
  const copy = structuredClone(DEFAULT_CONFIGURATION) as Record<string, unknown>;
  const keys = path.split(".");
  const last = keys.pop() as string;
  const parent = keys.reduce((v, key) => v[key] as Record<string, unknown>, copy);
  parent[last] = value;
  return copy;
}

/** A complete settings post: every number at its default, `path` at `value`. */
function settingsPost(path: NumberSettingPath, value: string) {
  const form = new FormData();
  for (const s of SETTINGS_SECTIONS) form.append("section", s);
  form.set("retention.requestAction", "delete");
  for (const p of paths) form.set(p, String(NUMBER_SETTINGS[p].default));
  // The pipeline's card posts its stages beside its two numbers (ADR 345).
  DEFAULT_CONFIGURATION.pipeline.stages.forEach((stage, i) => {
    form.set(`pipeline.stages[${i}].id`, stage.id);
    form.set(`pipeline.stages[${i}].name`, stage.name);
    form.set(`pipeline.stages[${i}].status`, stage.status);
    if (stage.askReason) form.set(`pipeline.stages[${i}].askReason`, "on");
  });
  DEFAULT_CONFIGURATION.pipeline.lostReasons.forEach((reason, i) => {
    form.set(`pipeline.lostReasons[${i}]`, reason);
  });
  form.set(path, value);
  return parseWithZod(form, { schema: SettingsFormSchema });
}

describe.each(paths)("the number setting %s", (path) => {
  const { min, max, default: fallback } = NUMBER_SETTINGS[path];

  it("is clamped into its range by the configuration (the API)", () => {
    const parse = (value: unknown) => at(ConfigurationSchema.parse(configWith(path, value)), path);
    expect(parse(min - 1)).toBe(min);
    expect(parse(max + 1)).toBe(max);
    expect(parse(String(max + 1000))).toBe(max);
    expect(parse(min)).toBe(min);
    expect(parse(max)).toBe(max);
    expect(parse("keine Zahl")).toBe(fallback);
    expect(at(DEFAULT_CONFIGURATION, path)).toBe(fallback);
  });

  it("is refused outside its range by the settings page, in German at its field", () => {
    const message = settingRangeMessage(path);
    expect(message).toBe(`Bitte geben Sie eine ganze Zahl von ${min} bis ${max} ein.`);
    for (const value of [String(min - 1), String(max + 1), "1.5", ""]) {
      const refused = settingsPost(path, value);
      expect(refused.status, `${path}=${value}`).toBe("error");
      const errors = refused.status === "error" ? refused.error : {};
      expect(errors?.[path], `${path}=${value}`).toEqual([message]);
    }
    for (const value of [min, max]) {
      const saved = settingsPost(path, String(value));
      expect(saved.status, `${path}=${value}`).toBe("success");
      if (saved.status === "success") expect(at(saved.value, path)).toBe(value);
    }
  });
});

describe("the table of number settings", () => {
  it("names every number the configuration stores outside its lists", () => {
    const numbers: string[] = [];
    const walk = (value: unknown, path: string) => {
      if (typeof value === "number") numbers.push(path);
      else if (value && typeof value === "object" && !Array.isArray(value))
        for (const [key, child] of Object.entries(value))
          walk(child, path ? `${path}.${key}` : key);
    };
    walk(DEFAULT_CONFIGURATION, "");
    expect(numbers.sort()).toEqual([...paths].sort());
    expect(numbers.every(isNumberSettingPath)).toBe(true);
  });
});
