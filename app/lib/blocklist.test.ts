import { describe, expect, it } from "vitest";
import {
  blocklistEntryError,
  blocklistMatch,
  parseBlocklistEntry,
  parseIp,
  SpamSettingsSchema,
} from "./blocklist";

describe("blocklistMatch", () => {
  it("matches a whole e-mail address, case-insensitively", () => {
    expect(blocklistMatch(["spam@example.com"], { email: "Spam@Example.com" })).toBe(true);
    expect(blocklistMatch(["spam@example.com"], { email: "anna@example.com" })).toBe(false);
  });

  it("matches e-mail patterns with * wildcards", () => {
    expect(blocklistMatch(["*@spam.test"], { email: "x@spam.test" })).toBe(true);
    expect(blocklistMatch(["bot*@*.test"], { email: "bot17@mail.test" })).toBe(true);
    expect(blocklistMatch(["bot*@*.test"], { email: "anna@mail.test" })).toBe(false);
  });

  it("matches a domain exactly, and subdomains only with a wildcard", () => {
    expect(blocklistMatch(["spam.test"], { email: "a@spam.test" })).toBe(true);
    expect(blocklistMatch(["spam.test"], { email: "a@mail.spam.test" })).toBe(false);
    expect(blocklistMatch(["*.spam.test"], { email: "a@mail.spam.test" })).toBe(true);
    expect(blocklistMatch(["*.spam.test"], { email: "a@notspam.test" })).toBe(false);
    // A dot in a pattern is a dot, not "any character".
    expect(blocklistMatch(["spam.test"], { email: "a@spamxtest" })).toBe(false);
  });

  it("matches IPv4 addresses and CIDR ranges", () => {
    expect(blocklistMatch(["192.0.2.7"], { ip: "192.0.2.7" })).toBe(true);
    expect(blocklistMatch(["192.0.2.7"], { ip: "192.0.2.8" })).toBe(false);
    expect(blocklistMatch(["198.51.100.0/24"], { ip: "198.51.100.200" })).toBe(true);
    expect(blocklistMatch(["198.51.100.0/24"], { ip: "198.51.101.1" })).toBe(false);
    expect(blocklistMatch(["10.0.0.0/8"], { ip: "::ffff:10.1.2.3" })).toBe(true);
    expect(blocklistMatch(["0.0.0.0/0"], { ip: "203.0.113.9" })).toBe(true);
  });

  it("matches IPv6 addresses and CIDR ranges", () => {
    expect(blocklistMatch(["2001:db8::1"], { ip: "2001:0db8:0:0:0:0:0:1" })).toBe(true);
    expect(blocklistMatch(["2001:db8::/32"], { ip: "2001:db8:ffff::42" })).toBe(true);
    expect(blocklistMatch(["2001:db8::/32"], { ip: "2001:db9::1" })).toBe(false);
    expect(blocklistMatch(["2001:db8:1:2::/64"], { ip: "2001:db8:1:2:a:b:c:d" })).toBe(true);
    expect(blocklistMatch(["2001:db8:1:2::/64"], { ip: "2001:db8:1:3::1" })).toBe(false);
    // Versions never match each other.
    expect(blocklistMatch(["::/0"], { ip: "192.0.2.1" })).toBe(false);
  });

  it("matches nothing for an empty list or an unknown client", () => {
    expect(blocklistMatch([], { email: "a@b.test", ip: "192.0.2.1" })).toBe(false);
    expect(blocklistMatch(["192.0.2.1", "*@b.test"], { email: null, ip: "unknown" })).toBe(false);
  });
});

describe("parseBlocklistEntry and parseIp", () => {
  it("refuses what is none of the forms", () => {
    for (const bad of ["", "a b", "192.0.2.0/33", "2001:db8::/129", "1.2.3", "*", "a@", "x/8"]) {
      expect(parseBlocklistEntry(bad), bad).toBeNull();
    }
  });

  it("parses IPv6 with an IPv4 tail and compressed zeros", () => {
    expect(parseIp("::1")).toEqual({ version: 6, value: 1n });
    expect(parseIp("64:ff9b::192.0.2.1")?.version).toBe(6);
    expect(parseIp("::ffff:192.0.2.1")).toEqual({ version: 4, value: 0xc0000201n });
    expect(parseIp("1:2:3:4:5:6:7:8:9")).toBeNull();
  });
});

describe("SpamSettingsSchema", () => {
  it("defaults to an empty list and 30 days", () => {
    expect(SpamSettingsSchema.parse({})).toEqual({
      blocklist: [],
      quarantineDays: 30,
      heldBookingsPerDay: 3,
    });
  });

  it("normalises entries and refuses invalid ones in German", () => {
    expect(
      SpamSettingsSchema.parse({ blocklist: [" *@Spam.test ", "*@spam.test"] }).blocklist,
    ).toEqual(["*@spam.test"]);
    const result = SpamSettingsSchema.safeParse({ blocklist: ["kein eintrag"] });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toMatch(/^Bitte geben Sie/);
  });

  it("clamps the quarantine days", () => {
    expect(SpamSettingsSchema.parse({ quarantineDays: 0 }).quarantineDays).toBe(1);
    expect(SpamSettingsSchema.parse({ quarantineDays: 9999 }).quarantineDays).toBe(365);
  });
});

describe("blocklistEntryError", () => {
  it("says in German which form an entry misses, and nothing for a valid one", () => {
    expect(blocklistEntryError("*.spam.test")).toBeNull();
    expect(blocklistEntryError(" 2001:DB8::/32 ")).toBeNull();
    expect(blocklistEntryError(" ")).toMatch(/einen Eintrag/);
    expect(blocklistEntryError("a b@c.de")).toMatch(/E-Mail-Adresse/);
    expect(blocklistEntryError("10.0.0.0/40")).toMatch(/CIDR-Bereich/);
    expect(blocklistEntryError("300.1.1.1")).toMatch(/IP-Adresse/);
    expect(blocklistEntryError("spam_test")).toMatch(/Domain/);
    expect(blocklistEntryError(`${"a".repeat(250)}.test`)).toMatch(/254 Zeichen/);
  });
});
