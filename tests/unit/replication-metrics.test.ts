import { describe, expect, it } from "vitest";
import { replicationBehindBytes, sumSamples } from "~/server/platform/metrics.server";

const litestream = (replicaIndex: number, replicaOffset: number) =>
  [
    "# TYPE litestream_shadow_wal_index gauge",
    'litestream_shadow_wal_index{db="/data/sqlite.db"} 2',
    'litestream_shadow_wal_size{db="/data/sqlite.db"} 8192',
    `litestream_replica_wal_index{db="/data/sqlite.db",name="s3"} ${replicaIndex}`,
    `litestream_replica_wal_offset{db="/data/sqlite.db",name="s3"} ${replicaOffset}`,
    'litestream_sync_error_count{db="/data/sqlite.db"} 3',
  ].join("\n");

describe("replication lag from Litestream's metrics", () => {
  it("is 0 bytes when the replica position equals the local one", () => {
    expect(replicationBehindBytes(litestream(2, 8192))).toBe(0);
  });
  it("counts the bytes of the local WAL the replica lacks", () => {
    expect(replicationBehindBytes(litestream(2, 4096))).toBe(4096);
    expect(replicationBehindBytes(litestream(1, 9999))).toBe(8192);
  });
  it("is unknown without Litestream's series", () => {
    expect(replicationBehindBytes("process_cpu_seconds_total 1")).toBeUndefined();
  });
  it("sums samples by exact metric name", () => {
    expect(sumSamples(litestream(0, 0), "litestream_sync_error_count")).toBe(3);
    expect(sumSamples(litestream(0, 0), "litestream_shadow_wal")).toBeUndefined();
  });
});
