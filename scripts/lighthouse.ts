// `npm run lighthouse`: build ($BUILD_DIR), start the production server on a temporary database,
// run Lighthouse 13 with Debian's Chromium against `/`, `/admin/login` and one admin page after
// login (`/admin/requests`, with the session cookie of a form login), and print per page the four
// category scores, the JavaScript transferred during load and the audits that cost points.
// SKIP_BUILD=1 reuses an existing build; LIGHTHOUSE_PORT picks the port; LIGHTHOUSE_PRESET=desktop
// runs Lighthouse's desktop preset; LIGHTHOUSE_PAGES=/,/admin/login picks pages; LIGHTHOUSE_JSON=dir
// keeps the reports.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { benchAdminToken, startBenchServer } from "./bench-server.ts";
import { CHROMIUM_DEFAULT_PATH, chromiumArgs } from "./chromium.ts";

const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
const ADMIN_PAGE = "/admin/requests";

type Audit = { id: string; score: number | null; scoreDisplayMode: string; displayValue?: string };
type Report = {
  lighthouseVersion: string;
  categories: Record<string, { score: number | null; auditRefs: { id: string }[] } | undefined>;
  audits: Record<string, Audit & { details?: { items?: unknown[] } }>;
};

if (process.env.SKIP_BUILD !== "1") {
  const built = spawnSync("npx", ["react-router", "build"], { stdio: "inherit" });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
const port = Number(process.env.LIGHTHOUSE_PORT ?? Number(process.env.E2E_PORT_BASE ?? 4200) + 50);
const server = await startBenchServer(port);
const out = mkdtempSync(path.join(tmpdir(), "anfrage-lighthouse-"));
const preset = process.env.LIGHTHOUSE_PRESET; // e.g. "desktop"; default: Lighthouse's mobile run
const pages = (process.env.LIGHTHOUSE_PAGES ?? `/,/admin/login,${ADMIN_PAGE}`).split(",");

/** Logs the bench's first admin in through the login form (as a browser would) and returns its cookie. */
async function sessionCookie(): Promise<string> {
  await benchAdminToken(server); // the first admin must change its password before pages open
  const response = await fetch(`${server.url}/admin/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username: "admin", password: "bench-passwort-2" }),
  });
  const cookie = response.headers.getSetCookie().map((c) => c.split(";")[0]);
  if (response.status !== 302 || !cookie.length)
    throw new Error(`form login answered ${response.status} without a session cookie`);
  return cookie.join("; ");
}

function lighthouse(pathname: string, cookie: string | undefined, attempt = 1): Report {
  const name = pathname.replace(/\W+/g, "_") || "root";
  const report = path.join(out, `${name}.json`);
  // A fresh browser profile per run (a reused one has made Lighthouse lose the trace: NO_NAVSTART).
  const profile = path.join(out, `profile-${name}-${attempt}`);
  const flags = ["--headless", ...chromiumArgs, `--user-data-dir=${profile}`].join(" ");
  const run = spawnSync(
    "npx",
    [
      "lighthouse",
      `${server.url.replace("127.0.0.1", "localhost")}${pathname}`,
      "--output=json",
      `--output-path=${report}`,
      `--chrome-flags=${flags}`,
      "--quiet",
      ...(preset ? [`--preset=${preset}`] : []),
      ...(cookie ? [`--extra-headers=${JSON.stringify({ Cookie: cookie })}`] : []),
    ],
    {
      stdio: "inherit",
      env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? CHROMIUM_DEFAULT_PATH },
    },
  );
  if (run.status !== 0) {
    // Lighthouse's own trace recording fails now and then on a busy machine: one more try.
    if (attempt < 2) return lighthouse(pathname, cookie, attempt + 1);
    throw new Error(`lighthouse exited with ${run.status} for ${pathname}`);
  }
  if (process.env.LIGHTHOUSE_JSON) {
    mkdirSync(process.env.LIGHTHOUSE_JSON, { recursive: true });
    copyFileSync(report, path.join(process.env.LIGHTHOUSE_JSON, path.basename(report)));
  }
  return JSON.parse(readFileSync(report, "utf8")) as Report;
}

function print(pathname: string, result: Report) {
  console.log(`\nLighthouse ${result.lighthouseVersion} for ${pathname} (${preset ?? "mobile"})`);
  for (const key of CATEGORIES) {
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
  for (const key of CATEGORIES) {
    const category = result.categories[key];
    if (!category || category.score === 1) continue;
    const failing = category.auditRefs
      .map((ref) => result.audits[ref.id])
      .filter(
        (a) =>
          a.score !== null &&
          a.score < 1 &&
          a.scoreDisplayMode !== "informative" &&
          a.scoreDisplayMode !== "notApplicable",
      )
      .map((a) => `${a.id} (${a.score}${a.displayValue ? `, ${a.displayValue}` : ""})`);
    if (failing.length) console.log(`  ${key}: ${failing.join(", ")}`);
  }
  return { pathname, jsBytes };
}

try {
  const summary: string[] = [];
  let cookie: string | undefined;
  for (const pathname of pages) {
    const needsLogin =
      pathname.startsWith("/admin/") && !/\/admin\/(login|register|forgot|reset)/.test(pathname);
    if (needsLogin) cookie ??= await sessionCookie();
    const result = lighthouse(pathname, needsLogin ? cookie : undefined);
    const { jsBytes } = print(pathname, result);
    const scores = CATEGORIES.map((k) => {
      const s = result.categories[k]?.score;
      return s == null ? "n/a" : String(Math.round(s * 100));
    }).join(" / ");
    summary.push(
      `  ${pathname.padEnd(18)} ${scores.padEnd(18)} ${(jsBytes / 1024).toFixed(1)} KB JS`,
    );
  }
  console.log(`\nSummary (performance / accessibility / best practices / SEO, JS transferred)`);
  for (const line of summary) console.log(line);
} finally {
  await server.stop();
  rmSync(out, { recursive: true, force: true });
}
