// The server the slot tests attack (ADR 321): 16 slots, a 15 s body deadline, TRUST_PROXY=fly so
// a test speaks from any address (Fly-Client-IP), and the helpers both attack files use.
import { afterAll, beforeAll } from "vitest";
import { multipart, pdfBytes, validFields } from "../integration/landing-fixtures";
import { startTestServer, type TestServer } from "../integration/server";
import { serverReceived } from "./server-received";
import { multipartBody, type Trickle, trickle } from "./trickle";

export function slotServer(extraEnv: Record<string, string> = {}) {
  let current: TestServer | undefined;
  const env: Record<string, string> = {
    TRUST_PROXY: "fly",
    MAX_CONCURRENT_REQUESTS: "16",
    BODY_DEADLINE_SECONDS: "15",
    ...extraEnv,
  };
  beforeAll(async () => {
    current = await startTestServer(env);
  });
  afterAll(async () => {
    await current?.close();
    for (const name of Object.keys(env)) delete process.env[name];
  });
  const server = () => current as TestServer;

  /** GET / from `ip`; the status, or "timeout" after `ms`. */
  async function visit(ip: string, ms = 5000): Promise<number | "timeout"> {
    try {
      const res = await server().fetch("/", {
        headers: { "fly-client-ip": ip },
        signal: AbortSignal.timeout(ms),
      });
      await res.arrayBuffer();
      return res.status;
    } catch {
      return "timeout";
    }
  }

  /** Starts `perIp` trickled posts from each address and resolves once the server has them all. */
  async function trickleFrom(
    ips: string[],
    perIp: number,
    body: { body: Buffer; contentType: string; bytes?: number; everyMs?: number },
  ): Promise<Trickle[]> {
    const arrived = serverReceived(ips.length * perIp, (request) =>
      ips.includes(String(request.headers["fly-client-ip"])),
    );
    const posts = ips.flatMap((ip) =>
      Array.from({ length: perIp }, () => trickle(server().url, { ip, ...body })),
    );
    await arrived.all;
    return posts;
  }

  /** An honest submission (a small multipart form, sent at once) from `ip`: its status within `ms`. */
  async function submit(ip: string, ms = 5000): Promise<number | "timeout"> {
    const { body, contentType } = await multipartBody(multipart(validFields()));
    return answerWithin(trickle(server().url, { ip, body, contentType, everyMs: 0 }), ms);
  }

  return { server, stats: () => server().requestStats(), visit, trickleFrom, submit };
}

/** Waits (without a timer) until a condition holds. */
export async function until(condition: () => boolean) {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

/** The answer to `post`, or "timeout" after `ms`. */
export async function answerWithin(post: Trickle, ms: number): Promise<number | "timeout"> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), ms);
  });
  try {
    return await Promise.race([post.answered, timeout]);
  } finally {
    clearTimeout(timer);
    post.stop();
  }
}

/** Stops every trickled post (the connections close). */
export function stopAll(posts: Trickle[]) {
  for (const post of posts) post.stop();
}

/** A submission with a PDF of `size` bytes: a body in transit (more than the 64 KB read ahead). */
export const upload = (size: number) =>
  multipartBody(multipart(validFields(), [{ name: "plan.pdf", bytes: pdfBytes(size) }]));
