import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testHooks } from "../platform/test-hooks.server";
import { postWebhook } from "./http.server";

let server: Server;
let port: number;
let hits = 0;
beforeAll(async () => {
  server = createServer((req, res) => {
    hits++;
    req.resume();
    req.on("end", () => res.writeHead(204).end());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

// The real connection path: Node's net asks the checked lookup (with all: true, autoSelectFamily).
describe("postWebhook through the checked lookup", () => {
  it("reaches a loopback name under a local APP_URL", async () => {
    testHooks.setResolver((_host, cb) => cb(null, [{ address: "127.0.0.1", family: 4 }]));
    try {
      const before = hits;
      const result = await postWebhook(`http://hooks.test:${port}/x`, "{}", {}, "local");
      expect(result).toEqual({ ok: true, status: 204 });
      expect(hits).toBe(before + 1);
    } finally {
      testHooks.setResolver();
    }
  });

  it("never connects when the name resolves to a non-public address under the strict policy", async () => {
    for (const address of ["127.0.0.1", "::ffff:127.0.0.1", "169.254.169.254", "10.0.0.1"]) {
      testHooks.setResolver((_host, cb) =>
        cb(null, [{ address, family: address.includes(":") ? 6 : 4 }]),
      );
      try {
        const before = hits;
        const result = await postWebhook(`https://hooks.example.com:${port}/x`, "{}", {}, "strict");
        expect(result.ok).toBe(false);
        expect(result.ok ? "" : result.error).toContain("nicht");
        expect(hits).toBe(before);
      } finally {
        testHooks.setResolver();
      }
    }
  });

  it("refuses http and IP literals under the strict policy before any connection", async () => {
    const before = hits;
    expect((await postWebhook(`http://hooks.example.com:${port}/`, "{}", {}, "strict")).ok).toBe(
      false,
    );
    expect((await postWebhook(`https://2130706433:${port}/`, "{}", {}, "strict")).ok).toBe(false);
    expect((await postWebhook(`https://[::1]:${port}/`, "{}", {}, "strict")).ok).toBe(false);
    expect(hits).toBe(before);
  });
});
