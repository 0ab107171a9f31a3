import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importBuild } from "../../server/app.ts";
import { startTestServer, type TestServer } from "../integration/server";
import {
  apiTable,
  buildModules,
  classificationOf,
  concretePath,
  type Method,
  routePatterns,
} from "./route-table";

// The methods of the /api routes as their modules declare them (ADR 306).
const { build, extras } = await importBuild();
const { table: API } = await apiTable(buildModules(build), extras.testHooks.describeApiCall);

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startTestServer();
  token = await server.adminToken();
});
afterAll(async () => {
  await server.close();
});

const MB = 1024 * 1024;
type Body = { name: string; type?: string; body: string | Uint8Array; expect?: number };
const utf8 = (s: string) => new TextEncoder().encode(s);
const CORPUS: Body[] = [
  {
    name: "malformed multipart",
    type: "multipart/form-data; boundary=xyz",
    body: '--xyz\r\nContent-Disposition: form-data; name="a"\r\n\r\nnever ends',
  },
  { name: "multipart without boundary", type: "multipart/form-data", body: "a=b" },
  {
    name: "bad percent-encoding",
    type: "application/x-www-form-urlencoded",
    body: "%zz=%E0%A4%A&username=%",
  },
  {
    name: "NUL bytes in fields",
    type: "application/x-www-form-urlencoded",
    body: "username=%00&password=%00&q=%00&intent=%00&email=a%00b%40c.de",
  },
  { name: "text/plain", type: "text/plain", body: "hallo", expect: 415 },
  { name: "xml", type: "application/xml", body: "<a/>", expect: 415 },
  { name: "no content type", body: "a=b", expect: 415 },
  { name: "malformed JSON", type: "application/json", body: '{"a":' },
  { name: "JSON null", type: "application/json", body: "null" },
  { name: "JSON array", type: "application/json", body: "[1,2]" },
  {
    name: "deep JSON",
    type: "application/json",
    body: `{"a":${"[".repeat(50_000)}${"]".repeat(50_000)}}`,
  },
  {
    name: "FTS5 syntax and overlong strings",
    type: "application/json",
    body: JSON.stringify({
      search: 'NEAR("a" "b") * ^ : OR "',
      q: "\u0000",
      username: "a".repeat(300_000),
      password: "b".repeat(300_000),
      email: `${"x".repeat(5000)}@example.com`,
      name: "\u0000".repeat(1000),
    }),
  },
  {
    name: "invalid UTF-8",
    type: "application/json",
    body: new Uint8Array([...utf8('{"name":"'), 0xff, 0xfe, 0xc3, 0x28, ...utf8('"}')]),
  },
  {
    name: "invalid UTF-8 form",
    type: "application/x-www-form-urlencoded",
    body: new Uint8Array([...utf8("name="), 0xff, 0xc3, 0x28]),
  },
];

/** Runs `tasks` a few at a time (the server and the machine are shared). */
async function pool<T>(items: T[], run: (item: T) => Promise<void>, size = 6) {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: size }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await run(item);
    }),
  );
}

/** A raw HTTP/1.1 request (fetch refuses to send a bad Host header). */
function raw(request: string): Promise<string> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1", () => socket.end(request));
    let out = "";
    socket.on("data", (d) => {
      out += d;
    });
    socket.on("end", () => resolve(out));
    socket.on("error", reject);
  });
}

describe("hostile input never answers 5xx", () => {
  it("every page action and /api call survives the corpus (as visitor and as admin)", async () => {
    const targets: { path: string; method: Method; admin: boolean }[] = [];
    for (const { pattern } of routePatterns()) {
      const c = classificationOf(pattern, API);
      const methods: Method[] =
        c && "api" in c
          ? (["POST", ...Object.keys(c.api)].filter((m) => m !== "GET") as Method[])
          : ["POST"];
      for (const method of new Set(methods)) {
        // As admin, logging out would end the token the other cases use.
        for (const admin of pattern.endsWith("logout") ? [false] : [false, true]) {
          // An index route's action is addressed with ?index (a bare POST / is the root's 405).
          const path = pattern === "" ? "/?index" : concretePath(pattern);
          targets.push({ path, method, admin });
        }
      }
    }
    const failures: string[] = [];
    await pool(
      targets.flatMap((t) => CORPUS.map((b) => ({ ...t, b }))),
      async ({ path, method, admin, b }) => {
        const headers: Record<string, string> = {};
        if (b.type) headers["content-type"] = b.type;
        const label = `${method} ${path} ${admin ? "admin" : "visitor"} ${b.name}`;
        let res: Response;
        try {
          res = await server.fetch(path, {
            method,
            headers,
            token: admin ? token : undefined,
            body: b.body as BodyInit,
          });
          await res.arrayBuffer();
        } catch (error) {
          failures.push(`${label}: ${(error as Error).cause ?? error}`);
          return;
        }
        if (res.status >= 500 || (b.expect && res.status !== b.expect)) {
          failures.push(
            `${method} ${path} ${admin ? "admin" : "visitor"} ${b.name}: ${res.status}`,
          );
        }
      },
    );
    expect(failures).toEqual([]);
  }, 180_000);

  it("answers an oversized JSON body with 413 before reading it", async () => {
    const res = await server.fetch("/api/admin/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: `{"username":"${"a".repeat(2 * MB)}"}`,
    });
    expect(res.status).toBe(413);
    expect((await res.json()).error).toMatch(/zu groß/);
  });

  it("answers NUL bytes in the URL and in the admin search with 400", async () => {
    for (const path of ["/%00", "/admin/requests?q=%00", "/api/admin/requests?search=%00"]) {
      const res = await server.fetch(path, { token });
      expect(res.status, path).toBe(400);
    }
  });

  it("searches with FTS5 syntax, control characters and overlong terms", async () => {
    for (const q of ['NEAR("a" *', "a\tb\u0001c", '"'.repeat(5000), "x".repeat(4000)]) {
      const res = await server.fetch(`/admin/requests?q=${encodeURIComponent(q)}`, { token });
      expect(res.status, q.slice(0, 20)).toBe(200);
    }
  });

  it("answers a bad Host header with 400 and a German text", async () => {
    for (const host of ["exa mple.de", "a/b", "[::1", "x:y:z", "ä.de"]) {
      const answer = await raw(`GET / HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      expect(answer, host).toMatch(/^HTTP\/1\.1 400/);
      expect(answer, host).toMatch(/Ungültiger Host-Header/);
    }
  });
});
