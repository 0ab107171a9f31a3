import { readdirSync } from "node:fs";
import http from "node:http";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../integration/server";
import { serverReceived } from "./server-received";

// One client trickling uploads must not take every request slot (ADR 195, 197): with 4 slots a
// client holds at most one; behind Fly the client is Fly-Client-IP.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ TRUST_PROXY: "fly", MAX_CONCURRENT_REQUESTS: "4" });
});
afterAll(async () => {
  await server.close();
  delete process.env.TRUST_PROXY;
  delete process.env.MAX_CONCURRENT_REQUESTS;
});

/** Starts `n` uploads from `ip` that send their headers and a first chunk, then nothing more. */
async function stalledUploads(ip: string, n: number) {
  const { hostname, port } = new URL(server.url);
  const serverHasAll = serverReceived(n, (request) => request.headers["fly-client-ip"] === ip);
  const requests = Array.from({ length: n }, () => {
    const req = http.request({
      hostname,
      port,
      path: "/api/requests",
      method: "POST",
      agent: false,
      headers: {
        "content-type": "multipart/form-data; boundary=langsam",
        "content-length": 200_000,
        "fly-client-ip": ip,
      },
    });
    req.on("error", () => {});
    req.write('--langsam\r\nContent-Disposition: form-data; name="name"\r\n\r\nLang');
    return req;
  });
  await serverHasAll.all;
  return {
    stop: () => {
      for (const req of requests) req.destroy();
    },
  };
}

const visit = (ip: string) =>
  server.fetch("/", { headers: { "fly-client-ip": ip } }).then(async (res) => {
    await res.arrayBuffer();
    return res.status;
  });

it("eight stalled uploads from one client leave the other slots to everyone else", async () => {
  const attacker = await stalledUploads("203.0.113.66", 8);
  try {
    // Three visitors at once, each its own client, while the attacker's bodies never complete.
    const statuses = await Promise.all(["198.51.100.1", "198.51.100.2", "198.51.100.3"].map(visit));
    expect(statuses).toEqual([200, 200, 200]);
    // The attacker's own next request waits behind its stalled ones instead of getting a slot.
    const own = new AbortController();
    const waiting = server
      .fetch("/", { headers: { "fly-client-ip": "203.0.113.66" }, signal: own.signal })
      .then(() => "answered")
      .catch(() => "still waiting");
    expect(await visit("198.51.100.4")).toBe(200);
    // Built assets never wait for a slot, not even the stalled client's own.
    const asset = readdirSync("build/client/assets").find((name) => name.endsWith(".js"));
    const script = await server.fetch(`/assets/${asset}`, {
      headers: { "fly-client-ip": "203.0.113.66" },
    });
    expect(script.status).toBe(200);
    own.abort();
    expect(await waiting).toBe("still waiting");
  } finally {
    attacker.stop();
  }
  // Every slot came back: four clients at once are all answered.
  const after = await Promise.all(
    ["198.51.100.5", "198.51.100.6", "198.51.100.7", "203.0.113.66"].map(visit),
  );
  expect(after).toEqual([200, 200, 200, 200]);
});

/** A GET with the path sent exactly as given (fetch would resolve the dot segments itself). */
function rawGet(path: string): Promise<number> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ hostname, port, path, method: "GET", agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end();
  });
}

it("nothing under /assets/ reaches the router (its bypass of the bound leads to files only)", async () => {
  for (const path of [
    "/assets/../admin/login",
    "/assets/%2e%2e/admin/login",
    "/assets/x/../../api/requests",
    "/assets/..%2fadmin/login",
    "/assets/gibt-es-nicht.js",
  ]) {
    expect([path, await rawGet(path)]).toEqual([path, 404]);
  }
  // Pages themselves still answer.
  expect(await rawGet("/admin/login")).toBe(200);
});
