// `npm run bench:crash` — three crash rounds (scripts/crash-run.ts): 60 concurrent submissions with
// two 256 KB attachments each, kill -9 after 20 answers, restart; prints the figures for
// docs/benchmarks.md. Needs `npm run build`. Port: $E2E_PORT_BASE + 190 (default 4590).
import { crashRound } from "./crash-run.ts";

const port = Number(process.env.E2E_PORT_BASE ?? 4400) + 190;
let failed = false;
for (let round = 1; round <= 3; round += 1) {
  const r = await crashRound({ port });
  failed ||= !r.integrity;
  console.log(
    `Runde ${round}: gesendet ${r.sent}, beantwortet ${r.answered}, bestätigt (201) ${r.acknowledged}, ` +
      `gespeichert ${r.stored}, übrige Dateien nach Kill ${r.leftoverBeforeRestart} → nach Neustart ${r.leftover.length}, Integrität ${r.integrity ? "ok" : "FEHLER"}`,
  );
  if (r.leftover.length) console.log(`  übrig: ${r.leftover.join(", ")}`);
}
process.exit(failed ? 1 : 0);
