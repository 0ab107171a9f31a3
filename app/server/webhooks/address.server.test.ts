import { describe, expect, it } from "vitest";
import { testHooks } from "../platform/test-hooks.server";
import { refusedAddress, refusedUrl, targetPolicy, unmapIPv4 } from "./address.server";
import { checkedLookup } from "./http.server";

describe("target policy", () => {
  const policy = (
    APP_URL: string,
    NODE_ENV: "production" | "development" | "test",
    allow = false,
  ) => targetPolicy({ APP_URL, NODE_ENV, WEBHOOK_ALLOW_LOCAL: allow });
  it("is local only outside production with a loopback APP_URL", () => {
    expect(policy("https://anfragen.example.com", "development")).toBe("strict");
    expect(policy("http://anfragen.example.com", "development")).toBe("strict");
    expect(policy("http://localhost:3000", "development")).toBe("local");
    expect(policy("https://localhost:3000", "test")).toBe("local");
    expect(policy("https://127.0.0.1", "test")).toBe("local");
  });
  it("is strict in production whatever APP_URL's scheme or host, unless opted in", () => {
    expect(policy("http://anfragen.example.com", "production")).toBe("strict");
    expect(policy("http://localhost:3000", "production")).toBe("strict");
    expect(policy("https://anfragen.example.com", "production")).toBe("strict");
    expect(policy("https://anfragen.example.com", "production", true)).toBe("local");
  });
});

describe("address check (strict)", () => {
  const refused = [
    "127.0.0.1",
    "127.1.2.3",
    "10.0.0.5",
    "172.16.3.4",
    "192.168.1.1",
    "100.64.0.1",
    "169.254.169.254",
    "0.0.0.0",
    "::1",
    "::",
    "fe80::1",
    "fd00:ec2::254",
    "fc00::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:a9fe:a9fe",
    "0:0:0:0:0:ffff:10.0.0.1",
    "64:ff9b::7f00:1",
    "::ffff:0:a9fe:a9fe",
    "::ffff:0:169.254.169.254",
    "::ffff:0:127.0.0.1",
    "0:0:0:0:0:0:a9fe:a9fe",
    "0:0:0:0:0:0:a00:1",
    "224.0.0.1",
    "255.255.255.255",
  ];
  for (const address of refused) {
    it(`refuses ${address}`, () => {
      expect(refusedAddress(address, "strict")).not.toBeNull();
    });
  }
  for (const address of ["93.184.216.34", "2606:4700:4700::1111", "::ffff:5db8:d822", "1.1.1.1"]) {
    it(`allows the public ${address}`, () => {
      expect(refusedAddress(address, "strict")).toBeNull();
    });
  }
  it("unmaps IPv4-mapped IPv6 in both notations", () => {
    expect(unmapIPv4("::ffff:7f00:1")).toBe("127.0.0.1");
    expect(unmapIPv4("[::ffff:127.0.0.1]")).toBe("127.0.0.1");
    expect(unmapIPv4("2606:4700::1111")).toBe("2606:4700::1111");
  });
});

describe("address check (local APP_URL)", () => {
  it("allows loopback but no other private range, never link-local or metadata", () => {
    expect(refusedAddress("127.0.0.1", "local")).toBeNull();
    expect(refusedAddress("127.8.9.10", "local")).toBeNull();
    expect(refusedAddress("::1", "local")).toBeNull();
    expect(refusedAddress("::ffff:127.0.0.1", "local")).toBeNull();
    expect(refusedAddress("192.168.1.10", "local")).not.toBeNull();
    expect(refusedAddress("10.0.0.5", "local")).not.toBeNull();
    expect(refusedAddress("fd00::1", "local")).not.toBeNull();
    expect(refusedAddress("0:0:0:0:0:0:a9fe:a9fe", "local")).not.toBeNull();
    expect(refusedAddress("::ffff:0:a9fe:a9fe", "local")).not.toBeNull();
    expect(refusedAddress("169.254.169.254", "local")).not.toBeNull();
    expect(refusedAddress("::ffff:169.254.169.254", "local")).not.toBeNull();
    expect(refusedAddress("fe80::1", "local")).not.toBeNull();
  });
});

describe("URL check before DNS", () => {
  it("refuses http under the strict policy and allows it locally", () => {
    expect(refusedUrl("http://hooks.example.com/x", "strict")).toMatch(/https/);
    expect(refusedUrl("http://127.0.0.1:9/x", "local")).toBeNull();
    expect(refusedUrl("https://hooks.example.com/x", "strict")).toBeNull();
  });
  it("refuses IP literals in every notation the URL parser accepts", () => {
    for (const url of [
      "https://[::1]/hook",
      "https://2130706433/hook", // decimal 127.0.0.1
      "https://0x7f000001/hook", // hex
      "https://0177.0.0.1/hook", // octal
      "https://127.1/hook", // short form
      "https://169.254.169.254/latest/meta-data",
      "https://[::ffff:127.0.0.1]/hook",
      "https://[::ffff:a9fe:a9fe]/hook",
      "https://localhost/hook",
      "https://metrics.localhost/hook",
    ]) {
      expect(refusedUrl(url, "strict"), url).not.toBeNull();
    }
    expect(refusedUrl("http://2130706433:9091/metrics", "local")).toBeNull();
    expect(refusedUrl("http://[::ffff:a9fe:a9fe]/", "local")).not.toBeNull();
  });
  it("refuses other schemes and credentials", () => {
    expect(refusedUrl("ftp://example.com/", "local")).not.toBeNull();
    expect(refusedUrl("file:///etc/passwd", "local")).not.toBeNull();
    expect(refusedUrl("https://user:pw@example.com/", "strict")).not.toBeNull();
  });
});

describe("lookup after DNS resolution (DNS mocked)", () => {
  const lookupOnce = (
    records: { address: string; family: number }[],
    policy: "strict" | "local",
  ) => {
    testHooks.setResolver((_host, callback) => callback(null, records));
    return new Promise<{ error: (Error & { code?: string }) | null; address: string }>(
      (resolve) => {
        checkedLookup(policy)("hooks.example.com", { family: 0 }, (error, address) =>
          resolve({ error, address: String(address) }),
        );
      },
    ).finally(() => testHooks.setResolver());
  };

  it("refuses a name that resolves to a private or metadata address", async () => {
    for (const address of ["10.1.2.3", "169.254.169.254", "127.0.0.1"]) {
      const result = await lookupOnce([{ address, family: 4 }], "strict");
      expect(result.error?.code).toBe("EWEBHOOKTARGET");
    }
    const mapped = await lookupOnce([{ address: "::ffff:7f00:1", family: 6 }], "strict");
    expect(mapped.error?.code).toBe("EWEBHOOKTARGET");
  });

  it("connects to the checked public address, skipping refused ones", async () => {
    const result = await lookupOnce(
      [
        { address: "127.0.0.1", family: 4 },
        { address: "93.184.216.34", family: 4 },
      ],
      "strict",
    );
    expect(result.error).toBeNull();
    expect(result.address).toBe("93.184.216.34");
  });

  it("lets a local APP_URL reach loopback", async () => {
    const result = await lookupOnce([{ address: "127.0.0.1", family: 4 }], "local");
    expect(result).toEqual({ error: null, address: "127.0.0.1" });
  });
});
