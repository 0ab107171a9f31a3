// `npm run bench:restore`: the recovery time after losing the machine. Seeds
// BENCH_REQUESTS requests (100,000; scripts/bench-admin-seed.ts), backs the database up to a
// loopback S3 stand-in (`npm run backup -- --bucket`), then BENCH_ROUNDS times, with the data
// directory wiped: `npm run restore -- --bucket <key>` (download included) and the production
// server started on it until `/` answers 200 — once by default (integrity check in the background
// after listening) and once with `--no-check`. Also reports when the background check finished.
// Then Litestream's way: the server replicates to the stand-in, the data directory is wiped and the
// launcher restores from the replica and starts (BENCH_LITESTREAM=0 skips it).
// Run it from another checkout's directory to time that checkout's restore script and build.
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startS3StandIn } from "../tests/s3-stand-in.ts";
import { copyBenchDatabase, seedBenchRequests } from "./bench-admin-seed.ts";
import { startBenchServer } from "./bench-server.ts";

const COUNT = Number(process.env.BENCH_REQUESTS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const PORT = Number(process.env.BENCH_PORT ?? 3392);
const dir = mkdtempSync(path.join(tmpdir(), "anfrage-bench-restore-"));
const env = {
  DATABASE_PATH: path.join(dir, "data", "sqlite.db"),
  UPLOADS_DIR: path.join(dir, "data", "uploads"),
};
const s3 = await startS3StandIn("bench-restore");
// Asynchronous: the S3 stand-in answers from this process.
const run = (script: string, args: string[]) =>
  new Promise<string>((resolve, reject) =>
    execFile(
      process.execPath,
      [script, ...args],
      { env: { ...process.env, ...env, ...s3.env }, encoding: "utf8" },
      (error, stdout, stderr) =>
        error ? reject(new Error(stderr || error.message)) : resolve(stdout),
    ),
  );

const s = (ms: number) => `${(ms / 1000).toFixed(1).padStart(5)} s`;
try {
  mkdirSync(path.dirname(env.DATABASE_PATH), { recursive: true });
  let prepared = copyBenchDatabase(env.DATABASE_PATH);
  if (!prepared) {
    await run("scripts/migrate.ts", []);
    prepared = `Seeded ${COUNT} requests in ${seedBenchRequests(env.DATABASE_PATH, COUNT).toFixed(1)} s`;
  }
  const backup = await run("scripts/backup.ts", ["--bucket"]);
  const key = /s3:\/\/bench-restore\/(\S+)/.exec(backup)?.[1];
  if (!key) throw new Error(`no bucket key in: ${backup}`);
  const size = s3.objects.get(key)?.body.length ?? 0;
  console.log(
    `${prepared}; backup ${(size / 1e6).toFixed(0)} MB in the bucket (cwd ${process.cwd()})`,
  );
  for (let round = 1; round <= ROUNDS; round++) {
    for (const flags of [[], ["--no-check"]]) {
      rmSync(path.join(dir, "data"), { recursive: true, force: true });
      const started = performance.now();
      await run("scripts/restore.ts", ["--bucket", key, ...flags]);
      const restored = performance.now();
      const server = await startBenchServer(PORT, env);
      let status = 0;
      while (status !== 200) status = (await fetch(`${server.url}/`)).status;
      const served = performance.now();
      // The background check removes its marker when it is done (server/startup.ts).
      const marker = `${env.DATABASE_PATH}.check`;
      while (existsSync(marker)) await new Promise((r) => setTimeout(r, 20));
      const checked = performance.now();
      await server.stop();
      console.log(
        `round ${round} ${(flags[0] ?? "default").padEnd(10)} restore ${s(restored - started)}  start → first 200 on / ${s(served - restored)}  total ${s(served - started)}  check done after ${s(checked - started)}  (DB ${(statSync(env.DATABASE_PATH).size / 1e6).toFixed(0)} MB)`,
      );
    }
  }
  // Litestream (ADR 090; BENCH_LITESTREAM=0 skips): the running machine replicates to the bucket;
  // a new machine's launcher restores from it (`litestream restore`) before the server starts.
  if (process.env.BENCH_LITESTREAM !== "0") {
    const replicated = { ...env, ...s3.env };
    const snapshots = () => [...s3.objects.keys()].filter((k) => k.endsWith(".snapshot.lz4"));
    const running = await startBenchServer(PORT, replicated);
    const since = performance.now();
    while (!snapshots().length) await new Promise((r) => setTimeout(r, 100));
    const bytes = s3.objects.get(snapshots()[0])?.body.length ?? 0;
    console.log(
      `Litestream: snapshot (${(bytes / 1e6).toFixed(0)} MB, lz4) in the bucket ${s(performance.now() - since)} after the start`,
    );
    await running.stop();
    for (let round = 1; round <= ROUNDS; round++) {
      rmSync(path.join(dir, "data"), { recursive: true, force: true });
      const started = performance.now();
      const server = await startBenchServer(PORT, replicated);
      let status = 0;
      while (status !== 200) status = (await fetch(`${server.url}/`)).status;
      const served = performance.now();
      await server.stop();
      console.log(
        `round ${round} litestream: launcher (restore from the replica + start) → first 200 on / ${s(served - started)}  (DB ${(statSync(env.DATABASE_PATH).size / 1e6).toFixed(0)} MB)`,
      );
    }
  }
} finally {
  await s3.close();
  rmSync(dir, { recursive: true, force: true });
}
