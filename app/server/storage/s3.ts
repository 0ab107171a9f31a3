// A small streaming S3 client (aws4fetch signs, fetch streams): PUT with a known Content-Length and an
// unsigned payload (nothing buffered), GET with Range, HEAD, DELETE, list. Used by the uploads storage
// (ADR 093) and `npm run backup`. Self-contained so scripts can run it directly.
import { AwsClient } from "aws4fetch";

export type S3Config = {
  bucket: string;
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
};

type Source = Record<string, string | undefined>;

/** From the variables `fly storage create` sets (Tigris); undefined without BUCKET_NAME. */
export function s3ConfigFromEnv(source: Source = process.env): S3Config | undefined {
  const bucket = source.BUCKET_NAME?.trim();
  if (!bucket) return undefined;
  const endpoint = source.AWS_ENDPOINT_URL_S3?.trim() || source.AWS_ENDPOINT_URL?.trim();
  const region = source.AWS_REGION?.trim() || (endpoint ? "auto" : "us-east-1");
  return {
    bucket,
    endpoint: (endpoint || `https://s3.${region}.amazonaws.com`).replace(/\/$/, ""),
    region,
    accessKeyId: source.AWS_ACCESS_KEY_ID ?? "",
    secretAccessKey: source.AWS_SECRET_ACCESS_KEY ?? "",
  };
}

export class S3Error extends Error {
  override name = "S3Error";
  readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.status = status;
  }
}

const encodeKey = (key: string) => key.split("/").map(encodeURIComponent).join("/");

export class S3Bucket {
  readonly #client: AwsClient;
  readonly config: S3Config;
  constructor(config: S3Config) {
    this.config = config;
    this.#client = new AwsClient({
      accessKeyId: config.accessKeyId,
      secretAccessKey: config.secretAccessKey,
      region: config.region,
      service: "s3",
      retries: 0,
    });
  }

  /** Path-style URL (works with Tigris, MinIO and the test stand-in). */
  url(key = "", query = "") {
    return `${this.config.endpoint}/${this.config.bucket}/${encodeKey(key)}${query}`;
  }

  async #send(url: string, init: RequestInit & { duplex?: "half" }, ok: number[] = [200]) {
    const res = await this.#client.fetch(url, init);
    if (!ok.includes(res.status)) {
      await res.body?.cancel();
      throw new S3Error(`S3 ${init.method ?? "GET"} ${res.status}`, res.status);
    }
    return res;
  }

  /** Streams `body` of exactly `size` bytes to `key` (UNSIGNED-PAYLOAD: the body is not read twice). */
  async put(
    key: string,
    body: ReadableStream<Uint8Array> | Uint8Array,
    size: number,
    headers: Record<string, string> = {},
  ) {
    await this.#send(this.url(key), {
      method: "PUT",
      body: body as BodyInit,
      duplex: "half",
      headers: {
        ...headers,
        "content-length": String(size),
        "x-amz-content-sha256": "UNSIGNED-PAYLOAD",
      },
    }).then((res) => res.body?.cancel());
  }

  /** The object's response (body streams); null when missing. Range: inclusive byte offsets. */
  async get(key: string, range?: { start: number; end?: number }): Promise<Response | null> {
    const headers: Record<string, string> = {};
    if (range) headers.range = `bytes=${range.start}-${range.end ?? ""}`;
    const res = await this.#send(this.url(key), { headers }, [200, 206, 404]);
    if (res.status === 404) {
      await res.body?.cancel();
      return null;
    }
    return res;
  }

  async head(key: string): Promise<Headers | null> {
    const res = await this.#send(this.url(key), { method: "HEAD" }, [200, 404]);
    return res.status === 404 ? null : res.headers;
  }

  async delete(key: string) {
    await this.#send(this.url(key), { method: "DELETE" }, [200, 204, 404]).then((res) =>
      res.body?.cancel(),
    );
  }

  /** Keys under `prefix` (ListObjectsV2, all pages). */
  async list(prefix: string): Promise<{ key: string; size: number; lastModified: number }[]> {
    const out: { key: string; size: number; lastModified: number }[] = [];
    let token: string | undefined;
    do {
      const query = new URLSearchParams({ "list-type": "2", prefix });
      if (token) query.set("continuation-token", token);
      const xml = await (await this.#send(this.url("", `?${query}`), {})).text();
      for (const [, body] of xml.matchAll(/<Contents>([\s\S]*?)<\/Contents>/g)) {
        const key = /<Key>([\s\S]*?)<\/Key>/.exec(body)?.[1] ?? "";
        const size = Number(/<Size>(\d+)<\/Size>/.exec(body)?.[1] ?? 0);
        const modified = /<LastModified>([\s\S]*?)<\/LastModified>/.exec(body)?.[1];
        out.push({
          key: unescapeXml(key),
          size,
          lastModified: modified ? Date.parse(modified) : 0,
        });
      }
      token = /<IsTruncated>true<\/IsTruncated>/.test(xml)
        ? /<NextContinuationToken>([\s\S]*?)<\/NextContinuationToken>/.exec(xml)?.[1]
        : undefined;
    } while (token);
    return out;
  }
}

const unescapeXml = (s: string) =>
  s
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");
