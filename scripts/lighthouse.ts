// `npm run lighthouse`: build ($BUILD_DIR), start the production server on a temporary database,
// run Lighthouse 13 against / with Debian's Chromium and print the four category scores and the
// JavaScript transferred. SKIP_BUILD=1 reuses an existing build; LIGHTHOUSE_PORT picks the port.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startBenchServer } from "./bench-server.ts";
import { CHROMIUM_DEFAULT_PATH, chromiumArgs } from "./chromium.ts";

if (process.env.SKIP_BUILD !== "1") {
  const built = spawnSync("npx", ["react-router", "build"], { stdio: "inherit" });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
const port = Number(process.env.LIGHTHOUSE_PORT ?? Number(process.env.E2E_PORT_BASE ?? 4200) + 50);
const server = await startBenchServer(port);
const out = mkdtempSync(path.join(tmpdir(), "anfrage-lighthouse-"));
const report = path.join(out, "report.json");
const flags = ["--headless", ...chromiumArgs, `--user-data-dir=${path.join(out, "profile")}`].join(
  " ",
);
try {
  const preset = process.env.LIGHTHOUSE_PRESET; // e.g. "desktop"; default: Lighthouse's mobile run
  const run = spawnSync(
    "npx",
    [
      "lighthouse",
      `http://localhost:${port}/`,
      "--output=json",
      `--output-path=${report}`,
      `--chrome-flags=${flags}`,
      "--quiet",
      ...(preset ? [`--preset=${preset}`] : []),
    ],
    {
      stdio: "inherit",
      env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? CHROMIUM_DEFAULT_PATH },
    },
  );
  if (run.status !== 0) throw new Error(`lighthouse exited with ${run.status}`);
  const result = JSON.parse(readFileSync(report, "utf8"));
  console.log(`Lighthouse ${result.lighthouseVersion} for / (${preset ?? "mobile"})`);
  for (const key of ["performance", "accessibility", "best-practices", "seo"]) {
    const score = result.categories[key]?.score;
    console.log(`  ${key.padEnd(15)} ${score == null ? "n/a" : Math.round(score * 100)}`);
  }
  const items = (result.audits["network-requests"]?.details?.items ?? []) as {
    url: string;
    resourceType?: string;
    transferSize?: number;
  }[];
  const scripts = items.filter((i) => i.resourceType === "Script");
  const jsBytes = scripts.reduce((sum, i) => sum + (i.transferSize ?? 0), 0);
  console.log(`  JS transferred  ${(jsBytes / 1024).toFixed(1)} KB in ${scripts.length} files`);
  for (const s of scripts) {
    console.log(
      `    ${((s.transferSize ?? 0) / 1024).toFixed(1).padStart(6)} KB  ${new URL(s.url).pathname}`,
    );
  }
  for (const key of ["performance", "accessibility", "best-practices", "seo"]) {
    const category = result.categories[key];
    if (!category || category.score === 1) continue;
    const failing = category.auditRefs
      .map((ref: { id: string }) => result.audits[ref.id])
      .filter(
        (a: { score: number | null; scoreDisplayMode: string }) =>
          a.score !== null &&
          a.score < 1 &&
          a.scoreDisplayMode !== "informative" &&
          a.scoreDisplayMode !== "notApplicable",
      )
      .map((a: { id: string; score: number }) => `${a.id} (${a.score})`);
    if (failing.length) console.log(`  ${key}: ${failing.join(", ")}`);
  }
} finally {
  await server.stop();
  rmSync(out, { recursive: true, force: true });
}
