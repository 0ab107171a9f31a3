import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { acceptsGzip, deflateParts, gzipJoined } from "./render-cache-gzip.server";

const joined = (parts: Buffer[], separator: Buffer) =>
  Buffer.concat(parts.flatMap((p, i) => (i ? [separator, p] : [p])));

describe("gzipJoined", () => {
  it("is a valid gzip member of the parts joined with the separator", () => {
    const page = `<html><body>${"Grüße – Anfrage ".repeat(2000)}</body></html>`;
    const cases = [
      [page],
      [page, page.slice(0, 500), page.slice(100)],
      ["", '<script nonce="', '">x</script>', ""],
      ["", ""],
    ];
    for (const texts of cases) {
      const parts = texts.map((t) => Buffer.from(t));
      const deflated = deflateParts(parts);
      for (const nonce of ["abc+/==", "", "x".repeat(40)]) {
        const separator = Buffer.from(nonce);
        expect(gunzipSync(gzipJoined(parts, deflated, separator))).toEqual(
          joined(parts, separator),
        );
      }
    }
  });

  it("compresses the parts (the page is not sent stored)", () => {
    const parts = [Buffer.from("<p>Deine Software-Idee</p>".repeat(1000))];
    expect(gzipJoined(parts, deflateParts(parts), Buffer.from("n")).length).toBeLessThan(1000);
  });
});

describe("acceptsGzip", () => {
  it("follows the Accept-Encoding header", () => {
    expect(acceptsGzip("gzip, deflate, br, zstd")).toBe(true);
    expect(acceptsGzip("br;q=1.0, gzip;q=0.8")).toBe(true);
    expect(acceptsGzip("*")).toBe(true);
    expect(acceptsGzip(null)).toBe(false);
    expect(acceptsGzip("identity")).toBe(false);
    expect(acceptsGzip("br")).toBe(false);
    expect(acceptsGzip("gzip;q=0, *")).toBe(false);
    expect(acceptsGzip("*;q=0")).toBe(false);
  });
});
