import { describe, expect, it } from "vitest";
import { clientKey, networkKey } from "./client-key";

describe("clientKey: one client identity for every limit", () => {
  it("keeps an IPv4 address as it is", () => {
    expect(clientKey("203.0.113.7")).toBe("203.0.113.7");
    expect(clientKey("10.0.0.1")).toBe("10.0.0.1");
  });

  it("names an IPv4-mapped IPv6 address by its IPv4 address", () => {
    expect(clientKey("::ffff:127.0.0.1")).toBe("127.0.0.1");
    expect(clientKey("::FFFF:203.0.113.7")).toBe("203.0.113.7");
  });

  it("names an IPv6 address by its /56, whatever its spelling", () => {
    expect(clientKey("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:00/56");
    expect(clientKey("2001:db8:1:ff:ffff:ffff:ffff:fffe")).toBe("2001:db8:1:00/56");
    expect(clientKey("2001:0db8:0001:0002::1%eth0")).toBe("2001:db8:1:00/56");
    expect(clientKey("2001:DB8:1:2::1")).toBe("2001:db8:1:00/56");
    expect(clientKey("2001:db8::1")).toBe("2001:db8:0:00/56");
    expect(clientKey("::1")).toBe("0:0:0:00/56");
    expect(clientKey("::")).toBe("0:0:0:00/56");
    expect(clientKey("64:ff9b::198.51.100.1")).toBe("64:ff9b:0:00/56");
  });

  it("makes every /64 of one /56 one client and the next /56 another", () => {
    const of56 = Array.from({ length: 256 }, (_, i) =>
      clientKey(`2001:db8:0:${(0x100 + i).toString(16)}::${i + 1}`),
    );
    expect(new Set(of56)).toEqual(new Set(["2001:db8:0:01/56"]));
    expect(clientKey("2001:db8:0:100::1")).toBe("2001:db8:0:01/56");
    expect(clientKey("2001:db8:0:1ff::1")).toBe("2001:db8:0:01/56");
    expect(clientKey("2001:db8:0:200::1")).toBe("2001:db8:0:02/56");
    // Twelve addresses of one /64: one client.
    const of64 = Array.from({ length: 12 }, (_, i) => clientKey(`2001:db8:5:7::${i + 1}`));
    expect(new Set(of64)).toEqual(new Set(["2001:db8:5:00/56"]));
  });

  it("leaves what is no address (an unknown client) as it is", () => {
    expect(clientKey("unknown")).toBe("unknown");
    expect(clientKey("")).toBe("");
    expect(clientKey("1:2:3")).toBe("1:2:3");
    expect(clientKey("1::2::3")).toBe("1::2::3");
  });
});

describe("networkKey: the client's network (IPv4 /24, IPv6 /48)", () => {
  it("names an IPv4 address (also IPv4-mapped) by its /24", () => {
    expect(networkKey("203.0.113.7")).toBe("203.0.113.0/24");
    expect(networkKey("203.0.113.250")).toBe("203.0.113.0/24");
    expect(networkKey("::ffff:203.0.113.7")).toBe("203.0.113.0/24");
    expect(networkKey("203.0.114.7")).toBe("203.0.114.0/24");
  });

  it("names an IPv6 address by its /48: all 256 /56 of it are one network", () => {
    const of48 = Array.from({ length: 256 }, (_, i) =>
      networkKey(`2001:db8:7:${(i * 256).toString(16)}::1`),
    );
    expect(new Set(of48)).toEqual(new Set(["2001:db8:7::/48"]));
    expect(networkKey("2001:0DB8:0007:ffff::1%eth0")).toBe("2001:db8:7::/48");
    expect(networkKey("2001:db8:8::1")).toBe("2001:db8:8::/48");
    expect(networkKey("::1")).toBe("0:0:0::/48");
  });

  it("leaves what is no address as it is", () => {
    expect(networkKey("unknown")).toBe("unknown");
    expect(networkKey("")).toBe("");
  });
});
