// `npm run bench:upload`: starts the production server from $BUILD_DIR on a temporary database,
// streams one ~50 MB multipart request (5 PDF files of 9.9 MB, within the default limits) to
// POST /api/requests and samples the server's resident memory (RSS) before, during and after.
// Goal: RSS growth ≤ 30 MB. BENCH_PORT picks the port (default E2E_PORT_BASE + 60).
import { readFileSync } from "node:fs";
import { startBenchServer } from "./bench-server.ts";

const FILES = Number(process.env.BENCH_FILES ?? 5);
const FILE_BYTES = Math.round(9.9 * 1024 * 1024);
const CHUNK = 64 * 1024;
const MB = 1024 * 1024;

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb * 1024;
}

/** The multipart body, generated chunk by chunk (the bench process holds no 50 MB either). */
function multipartStream(boundary: string) {
  const encoder = new TextEncoder();
  const fields: Record<string, string> = {
    name: "Bench Mark",
    email: "bench@example.com",
    phone: "+49 30 1234567",
    companyDescription: "Ein Lasttest mit fünfzig Megabyte an Anhängen.",
    description: "Speicherverbrauch beim Hochladen messen.",
  };
  const filler = new Uint8Array(CHUNK).fill(0x20);
  const parts: (() => Generator<Uint8Array>)[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(function* () {
      yield encoder.encode(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      );
    });
  }
  for (let i = 0; i < FILES; i++) {
    parts.push(function* () {
      yield encoder.encode(
        `--${boundary}\r\nContent-Disposition: form-data; name="attachments"; filename="datei-${i + 1}.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
      );
      const head = encoder.encode("%PDF-1.4\n1 0 obj\n<<>>\nendobj\n");
      yield head;
      let left = FILE_BYTES - head.length - 7;
      while (left > 0) {
        const n = Math.min(CHUNK, left);
        yield n === CHUNK ? filler : filler.subarray(0, n);
        left -= n;
      }
      yield encoder.encode("\n%%EOF\n\r\n");
    });
  }
  parts.push(function* () {
    yield encoder.encode(`--${boundary}--\r\n`);
  });
  const all = (function* () {
    for (const part of parts) yield* part();
  })();
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = all.next();
      if (next.done) controller.close();
      else {
        sent += next.value.length;
        controller.enqueue(next.value);
      }
    },
  });
  return { stream, sent: () => sent };
}

const port = Number(process.env.BENCH_PORT ?? Number(process.env.E2E_PORT_BASE ?? 4200) + 60);
const server = await startBenchServer(port);
try {
  // Warm up: render the page and send one small request so code paths are loaded.
  await (await fetch(`${server.url}/`)).text();
  const warm = new FormData();
  warm.set("name", "Warm Up");
  warm.set("email", "warm@example.com");
  warm.set("phone", "+49 30 1234567");
  warm.set("companyDescription", "Aufwärmen des Servers vor der Messung.");
  await (await fetch(`${server.url}/api/requests`, { method: "POST", body: warm })).text();
  await new Promise((r) => setTimeout(r, 1000));

  const before = rssOf(server.pid);
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssOf(server.pid));
  }, 25);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 1);
  const upload = async () => {
    const boundary = `----bench${Date.now()}`;
    const body = multipartStream(boundary);
    const response = await fetch(`${server.url}/api/requests`, {
      method: "POST",
      headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
      body: body.stream,
      duplex: "half",
    } as RequestInit);
    const result = (await response.json()) as {
      id?: number;
      attachments?: unknown[];
      error?: string;
    };
    return { body, response, result };
  };
  const started = Date.now();
  let last = await upload();
  for (let round = 1; round < rounds; round++) {
    console.log(`  after upload ${round}: RSS peak so far ${(peak / MB).toFixed(1)} MB`);
    last = await upload();
  }
  const { body, response, result } = last;
  const seconds = (Date.now() - started) / 1000;
  await new Promise((r) => setTimeout(r, 1500));
  clearInterval(sampler);
  const after = rssOf(server.pid);

  if (response.status !== 201)
    throw new Error(`upload answered ${response.status}: ${result.error}`);
  console.log(
    `Upload: ${rounds} × ${(body.sent() / MB).toFixed(1)} MB in ${FILES} files each, ${seconds.toFixed(1)} s, status ${response.status}, ${result.attachments?.length} attachments stored`,
  );
  console.log(`RSS before: ${(before / MB).toFixed(1)} MB`);
  console.log(`RSS peak:   ${(peak / MB).toFixed(1)} MB`);
  console.log(`RSS after:  ${(after / MB).toFixed(1)} MB`);
  const growth = (peak - before) / MB;
  console.log(`RSS growth: ${growth.toFixed(1)} MB (goal ≤ 30 MB) ${growth <= 30 ? "OK" : "OVER"}`);
} finally {
  await server.stop();
}
