// `npm run bench:altcha`: how long the contact form's proof of work (ADR 250) takes in Chromium with
// 4× CPU throttling (CDP Emulation.setCPUThrottlingRate, Lighthouse's "mid-range mobile"), at
// 390×844. The production server from $BUILD_DIR runs on a temporary database; the page hydrates on
// a pointer move, the first focus in the form loads the widget and solves (the cold figure: chunk,
// worker start and solve), then BENCH_SOLVES further challenges are solved one after another
// through the widget (fetch + solve). BENCH_WORKERS overrides the widget's worker count (default:
// the browser's hardwareConcurrency, as for a visitor). Figures: docs/benchmarks.md.
import { chromium } from "@playwright/test";
import { startBenchServer } from "./bench-server.ts";
import { chromiumLaunchOptions } from "./chromium.ts";

const SOLVES = Number(process.env.BENCH_SOLVES ?? 20);
const RATE = Number(process.env.BENCH_CPU_THROTTLE ?? 4);
const WORKERS = process.env.BENCH_WORKERS ? Number(process.env.BENCH_WORKERS) : undefined;
const BASE = Number(process.env.E2E_PORT_BASE ?? 4800);

const server = await startBenchServer(BASE + 12);
const browser = await chromium.launch(chromiumLaunchOptions);
try {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: RATE });
  await page.goto(`${server.url}/`);
  // Hydration on the first interaction (ADR 170), then the widget on the first focus in the form.
  await page.mouse.move(10, 10);
  await page
    .locator("section[data-hydrated]")
    .first()
    .waitFor({ state: "attached", timeout: 60_000 });
  const started = Date.now();
  await page.getByLabel("Name").focus();
  await page
    .getByTestId("altcha-status")
    .getByText("Prüfung abgeschlossen.")
    .waitFor({ timeout: 120_000 });
  const coldMs = Date.now() - started;
  const info = await page.evaluate(
    async ({ solves, workers }) => {
      type Widget = HTMLElement & {
        verify(): Promise<{ payload: string } | null>;
        configure(c: Record<string, unknown>): Promise<void>;
        getConfiguration(): { workers: number };
      };
      const widget = document.querySelector("altcha-widget") as Widget;
      if (workers) await widget.configure({ workers });
      const times: number[] = [];
      for (let i = 0; i < solves; i++) {
        const t = performance.now();
        const result = await widget.verify();
        if (!result?.payload) throw new Error("no solution");
        times.push(performance.now() - t);
      }
      return {
        times,
        workers: widget.getConfiguration().workers,
        cores: navigator.hardwareConcurrency,
      };
    },
    { solves: SOLVES, workers: WORKERS },
  );
  const sorted = [...info.times].sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number);
  console.log(
    JSON.stringify(
      {
        cpuThrottle: RATE,
        hardwareConcurrency: info.cores,
        workers: info.workers,
        coldMs,
        solves: sorted.length,
        medianMs: at(0.5),
        p90Ms: at(0.9),
        minMs: Math.round(sorted[0] as number),
        maxMs: Math.round(sorted.at(-1) as number),
      },
      null,
      2,
    ),
  );
} finally {
  await browser.close();
  await server.stop();
}
