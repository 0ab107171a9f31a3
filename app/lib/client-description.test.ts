import { describe, expect, it } from "vitest";
import { describeUserAgent, maskNetwork } from "./client-description";

describe("describeUserAgent", () => {
  it.each([
    [
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36",
      "Chrome auf Linux",
    ],
    [
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0",
      "Firefox auf Windows",
    ],
    [
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
      "Safari auf iOS",
    ],
    [
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 Edg/130.0.0.0",
      "Edge auf Windows",
    ],
    [
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15",
      "Safari auf macOS",
    ],
    [
      "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36",
      "Chrome auf Android",
    ],
    [
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/130.0.0.0 Safari/537.36",
      "Chrome auf Linux",
    ],
    ["curl/8.5.0", "curl"],
    ["", "Unbekanntes Gerät"],
    [null, "Unbekanntes Gerät"],
  ])("%s → %s", (ua, expected) => {
    expect(describeUserAgent(ua)).toBe(expected);
  });
});

describe("maskNetwork", () => {
  it.each([
    ["203.0.113.77", "203.0.113.0/24"],
    ["::ffff:198.51.100.9", "198.51.100.0/24"],
    ["2001:db8:abcd:12:1:2:3:4", "2001:db8:abcd::/48"],
    ["2001:db8::1", "2001:db8:0::/48"],
    ["::1", "0:0:0::/48"],
    ["fe80::1%eth0", "fe80:0:0::/48"],
    ["unknown", null],
    ["", null],
    [null, null],
    ["300.1.1.1", null],
    ["1:2:3:4:5:6:7:8:9", null],
    ["1::2::3", null],
  ])("%s → %s", (ip, expected) => {
    expect(maskNetwork(ip)).toBe(expected);
  });
});
