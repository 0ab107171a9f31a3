import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { envRef, litestreamBinary, litestreamPlan, replicaUrl } from "../../server/litestream.ts";

const tigris = {
  DATABASE_PATH: "/data/sqlite.db",
  BUCKET_NAME: "anfrage-portal-bucket",
  AWS_ACCESS_KEY_ID: "tid_key",
  AWS_SECRET_ACCESS_KEY: "tsec_secret",
  AWS_ENDPOINT_URL_S3: "https://fly.storage.tigris.dev",
  AWS_REGION: "auto",
};

/** Litestream itself parses the file (`litestream databases -config …`). */
function litestreamReads(yaml: string) {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "ls-yml-")), "litestream.yml");
  writeFileSync(file, yaml);
  return spawnSync(litestreamBinary(), ["databases", "-config", file], {
    encoding: "utf8",
    env: { ...process.env, ...tigris },
  });
}

describe("litestream.yml from the environment", () => {
  it("changes nothing without LITESTREAM_REPLICA_URL and BUCKET_NAME", () => {
    expect(litestreamPlan({ DATABASE_PATH: "/data/sqlite.db" })).toBeUndefined();
    expect(litestreamPlan({ LITESTREAM_REPLICA_URL: " ", BUCKET_NAME: "" })).toBeUndefined();
  });

  it("defaults to s3://$BUCKET_NAME/litestream and puts the Tigris endpoint, region and path style in", () => {
    const plan = litestreamPlan(tigris);
    expect(plan?.replicaUrl).toBe("s3://anfrage-portal-bucket/litestream");
    expect(plan?.yaml).toBe(
      [
        "# Generated at start-up by server/launch.ts from the environment (see server/litestream.ts).",
        "logging:",
        "  level: info",
        "  type: json",
        "dbs:",
        '  - path: "/data/sqlite.db"',
        "    replicas:",
        '      - url: "s3://anfrage-portal-bucket/litestream"',
        '        endpoint: "https://fly.storage.tigris.dev"',
        "        force-path-style: true",
        '        region: "auto"',
        `        access-key-id: ${envRef("AWS_ACCESS_KEY_ID")}`,
        `        secret-access-key: ${envRef("AWS_SECRET_ACCESS_KEY")}`,
        "        retention: 72h",
        "        snapshot-interval: 24h",
        "        sync-interval: 1s",
        "",
      ].join("\n"),
    );
    expect(envRef("AWS_ACCESS_KEY_ID")).toBe("$" + "{AWS_ACCESS_KEY_ID}");
    // The keys are expanded by Litestream from its environment, never written to the file.
    expect(plan?.yaml).not.toContain("tsec_secret");
    const parsed = litestreamReads(plan?.yaml ?? "");
    expect(parsed.status, parsed.stderr).toBe(0);
    expect(parsed.stdout).toMatch(/\/data\/sqlite\.db\s+s3/);
  });

  it("prefers LITESTREAM_REPLICA_URL, and writes a file replica for file://", () => {
    const plan = litestreamPlan(
      { LITESTREAM_REPLICA_URL: "file:///backup/replica", BUCKET_NAME: "ignored" },
      { cwd: "/app" },
    );
    expect(plan?.databasePath).toBe("/app/db/data.sqlite");
    expect(plan?.yaml).toContain('      - type: file\n        path: "/backup/replica"\n');
    expect(plan?.yaml).not.toContain("ignored");
    const parsed = litestreamReads(plan?.yaml ?? "");
    expect(parsed.status, parsed.stderr).toBe(0);
    expect(parsed.stdout).toMatch(/\/app\/db\/data\.sqlite\s+file/);
  });

  it("uses the AWS default region for plain S3 and adds the metrics address when asked", () => {
    const plan = litestreamPlan(
      { LITESTREAM_REPLICA_URL: "s3://bucket/path" },
      { metricsAddr: "127.0.0.1:9091" },
    );
    expect(plan?.yaml).toContain('region: "us-east-1"');
    expect(plan?.yaml).not.toContain("endpoint");
    expect(plan?.yaml).toContain('addr: "127.0.0.1:9091"');
  });

  it("refuses an unknown replica scheme with one clear line", () => {
    expect(() => replicaUrl({ LITESTREAM_REPLICA_URL: "ftp://x/y" })).toThrow(
      /LITESTREAM_REPLICA_URL/,
    );
  });
});
