import http from "node:http";

export type Trickle = {
  /** The answer's status once it arrives; 0 when the server closed the connection without one. */
  answered: Promise<number>;
  /** Bytes of the body written so far. */
  sent: () => number;
  stop: () => void;
};

/**
 * A POST that sends its headers at once and then its body `bytes` at a time every `everyMs`
 * (a slow or hostile client; `everyMs: 0` sends it all at once). Behind Fly (TRUST_PROXY=fly)
 * the client is `ip`.
 */
export function trickle(
  url: string,
  options: {
    ip: string;
    body: Buffer;
    contentType: string;
    path?: string;
    bytes?: number;
    everyMs?: number;
  },
): Trickle {
  const { hostname, port } = new URL(url);
  const { body, bytes = 1, everyMs = 2000 } = options;
  const req = http.request({
    hostname,
    port,
    path: options.path ?? "/api/requests",
    method: "POST",
    agent: false,
    headers: {
      "content-type": options.contentType,
      "content-length": body.length,
      "fly-client-ip": options.ip,
    },
  });
  let offset = 0;
  let timer: ReturnType<typeof setInterval> | undefined;
  const answered = new Promise<number>((resolve) => {
    req.on("response", (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
      res.on("error", () => resolve(res.statusCode ?? 0));
    });
    req.on("close", () => resolve(0));
  });
  req.on("error", () => {});
  const step = () => {
    if (req.destroyed || offset >= body.length) {
      clearInterval(timer);
      return;
    }
    const chunk = body.subarray(offset, offset + bytes);
    offset += chunk.length;
    if (offset >= body.length) req.end(chunk);
    else req.write(chunk);
  };
  req.flushHeaders();
  if (everyMs <= 0) {
    req.end(body);
    offset = body.length;
  } else {
    step();
    timer = setInterval(step, everyMs);
  }
  return {
    answered,
    sent: () => offset,
    stop: () => {
      clearInterval(timer);
      req.destroy();
    },
  };
}

/** A form body of `size` bytes (url-encoded). */
export const formBody = (size: number) => ({
  body: Buffer.from(`name=${"a".repeat(Math.max(0, size - 5))}`),
  contentType: "application/x-www-form-urlencoded",
});

/** A multipart body (fields and files) as the bytes a browser sends, with its content type. */
export async function multipartBody(form: FormData) {
  const encoded = new Response(form);
  return {
    body: Buffer.from(await encoded.arrayBuffer()),
    contentType: encoded.headers.get("content-type") ?? "",
  };
}
