import { afterEach, describe, expect, it, vi } from "vitest";

/** A fresh module graph, so env() and the lazily created cookie see this test's environment. */
async function load(environment: Record<string, string>) {
  for (const [key, value] of Object.entries(environment)) vi.stubEnv(key, value);
  vi.resetModules();
  return import("./attribution.server");
}

const consent = { analytics: true } as Parameters<
  Awaited<ReturnType<typeof load>>["landingAttribution"]
>[1];

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe("first-touch cookie", () => {
  it("is Secure in production behind https, like the other cookies", async () => {
    const { landingAttribution } = await load({
      NODE_ENV: "production",
      APP_URL: "https://anfrage.example",
      SESSION_SECRET: "s".repeat(40),
    });
    const { setCookie } = await landingAttribution(
      new Request("https://anfrage.example/?utm_source=ads"),
      consent,
    );
    expect(setCookie).toMatch(/^first_touch=/);
    expect(setCookie).toMatch(/;\s*Secure/i);
  });

  it("is not Secure on a plain-http development URL", async () => {
    const { landingAttribution } = await load({
      NODE_ENV: "development",
      APP_URL: "http://localhost:5600",
      SESSION_SECRET: "s".repeat(40),
    });
    const { setCookie } = await landingAttribution(
      new Request("http://localhost:5600/?utm_source=ads"),
      consent,
    );
    expect(setCookie).toMatch(/^first_touch=/);
    expect(setCookie).not.toMatch(/Secure/i);
  });

  it("a malformed value does not count as remembered: this visit is used and remembered", async () => {
    const { landingAttribution } = await load({
      NODE_ENV: "development",
      APP_URL: "http://localhost:5600",
      SESSION_SECRET: "s".repeat(40),
    });
    for (const junk of ["%%%kaputt", btoa("nicht-json"), btoa(encodeURIComponent("{}"))]) {
      const { attribution, setCookie } = await landingAttribution(
        new Request("http://localhost:5600/?utm_source=ads", {
          headers: { cookie: `first_touch=${junk}` },
        }),
        consent,
      );
      expect(attribution?.source, junk).toBe("ads");
      expect(setCookie, junk).toMatch(/^first_touch=/);
    }
  });
});
