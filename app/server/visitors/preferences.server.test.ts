import { describe, expect, it } from "vitest";
import { expireAnalyticsCookies } from "./preferences.server";

const req = (url: string, cookie: string) => new Request(url, { headers: { cookie } });

describe("expireAnalyticsCookies", () => {
  it("expires each _ga* cookie host-only, on the host and on the parent domain", () => {
    const out = expireAnalyticsCookies(req("https://www.example.de/", "_ga=1; _ga_X1=2; a=b"));
    expect(out).toHaveLength(6);
    expect(out.filter((c) => c.startsWith("_ga_X1="))).toEqual([
      expect.not.stringContaining("Domain="),
      expect.stringContaining("Domain=www.example.de"),
      expect.stringContaining("Domain=example.de"),
    ]);
    expect(out.every((c) => c.includes("Max-Age=0") && c.includes("Path=/"))).toBe(true);
  });

  it("uses only a host-only cookie on localhost and IPs; nothing without GA cookies", () => {
    expect(expireAnalyticsCookies(req("http://localhost:3000/", "_ga=1"))).toHaveLength(1);
    expect(expireAnalyticsCookies(req("http://127.0.0.1/", "_gid=1"))).toHaveLength(1);
    expect(expireAnalyticsCookies(req("http://localhost/", "galaxy=1; theme=dark"))).toEqual([]);
  });
});
