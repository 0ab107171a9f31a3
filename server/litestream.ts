// Pure: decides from the environment whether the database is replicated with Litestream, and writes the
// litestream.yml for it (Litestream v0.3.13, shipped by @flydotio/litestream-linux-x64). ADR 090.
import { createRequire } from "node:module";
import path from "node:path";

/** How long Litestream keeps snapshots + WAL in the replica (point-in-time restore window). */
export const RETENTION = "72h";
/** A new snapshot every 24 h, so a restore replays at most one day of WAL. */
export const SNAPSHOT_INTERVAL = "24h";
/** WAL frames are shipped every second: the recovery point objective is about 1 s. */
export const SYNC_INTERVAL = "1s";

type Source = Record<string, string | undefined>;

export type LitestreamPlan = {
  /** Absolute path of the replicated database. */
  databasePath: string;
  /** file:///… or s3://bucket/path */
  replicaUrl: string;
  /** The litestream.yml contents (secrets stay ${…} references, expanded by Litestream). */
  yaml: string;
};

const value = (source: Source, name: string) => {
  const v = source[name]?.trim();
  return v ? v : undefined;
};

/** The replica URL: LITESTREAM_REPLICA_URL, else s3://$BUCKET_NAME/litestream, else none. */
export function replicaUrl(source: Source): string | undefined {
  const explicit = value(source, "LITESTREAM_REPLICA_URL");
  if (explicit) {
    if (!/^(file|s3):\/\/./.test(explicit)) {
      throw new Error(
        `Ungültige Konfiguration: LITESTREAM_REPLICA_URL=${JSON.stringify(explicit)} (erwartet file:///pfad oder s3://bucket/pfad)`,
      );
    }
    return explicit;
  }
  const bucket = value(source, "BUCKET_NAME");
  return bucket ? `s3://${bucket}/litestream` : undefined;
}

/** `${NAME}`: expanded by Litestream from its environment when it reads the file. */
export const envRef = (name: string) => `\${${name}}`;

/** A YAML double-quoted scalar (JSON strings are valid YAML). */
const q = (s: string) => JSON.stringify(s);

/** undefined when replication is off (no LITESTREAM_REPLICA_URL, no BUCKET_NAME): nothing changes. */
export function litestreamPlan(
  source: Source,
  options: { cwd?: string; metricsAddr?: string } = {},
): LitestreamPlan | undefined {
  const url = replicaUrl(source);
  if (!url) return undefined;
  const databasePath = path.resolve(
    options.cwd ?? process.cwd(),
    value(source, "DATABASE_PATH") ?? "db/data.sqlite",
  );
  const replica: string[] = [];
  if (url.startsWith("file://")) {
    replica.push(`type: file`, `path: ${q(new URL(url).pathname)}`);
  } else {
    replica.push(`url: ${q(url)}`);
    // v0.3.13 ignores AWS_ENDPOINT_URL_S3: the endpoint Tigris sets (fly storage create) goes in here.
    const endpoint = value(source, "AWS_ENDPOINT_URL_S3") ?? value(source, "AWS_ENDPOINT_URL");
    if (endpoint) replica.push(`endpoint: ${q(endpoint)}`, `force-path-style: true`);
    replica.push(`region: ${q(value(source, "AWS_REGION") ?? (endpoint ? "auto" : "us-east-1"))}`);
    // Keys stay out of the file: Litestream expands ${VAR} from its own environment.
    if (value(source, "AWS_ACCESS_KEY_ID")) {
      replica.push(
        `access-key-id: ${envRef("AWS_ACCESS_KEY_ID")}`,
        `secret-access-key: ${envRef("AWS_SECRET_ACCESS_KEY")}`,
      );
    }
  }
  replica.push(
    `retention: ${RETENTION}`,
    `snapshot-interval: ${SNAPSHOT_INTERVAL}`,
    `sync-interval: ${SYNC_INTERVAL}`,
  );
  const lines = [
    "# Generated at start-up by server/launch.ts from the environment (see server/litestream.ts).",
    "logging:",
    "  level: info",
    "  type: json",
  ];
  // Litestream's own Prometheus endpoint (replication lag), scraped by /metrics (app/server/metrics).
  if (options.metricsAddr) lines.push(`addr: ${q(options.metricsAddr)}`);
  lines.push(
    "dbs:",
    `  - path: ${q(databasePath)}`,
    "    replicas:",
    ...replica.map((line, i) => `${i === 0 ? "      - " : "        "}${line}`),
    "",
  );
  return { databasePath, replicaUrl: url, yaml: lines.join("\n") };
}

/** The Litestream binary from the npm package (no download at install or run time). */
export function litestreamBinary(): string {
  const require = createRequire(import.meta.url);
  const pkg = require.resolve("@flydotio/litestream-linux-x64/package.json");
  return path.join(path.dirname(pkg), "litestream");
}
