// The data `npm run bench:admin` measures against: COUNT requests over the last COUNT minutes with
// varied German words, a third each New / In Progress / Done (the latter two with their status
// change in request_status_history), every 10th archived, two in five with a utm source, every
// 20th with a demo appointment (every 4th of those cancelled); the contact keys (duplicate leads)
// filled as a real submission fills them. Written with plain SQL beside the
// running server (WAL), so the bench measures the app's queries on a realistic, filled database.
import { copyFileSync } from "node:fs";
import Database from "better-sqlite3";
import { emailKey, phoneKey } from "../app/lib/contact-keys.ts";

const FIRST = [
  "Anna",
  "Jonas",
  "Lea",
  "Mehmet",
  "Sophie",
  "Lukas",
  "Marie",
  "Paul",
  "Özlem",
  "Jörg",
];
const LAST = [
  "Müller",
  "Schmidt",
  "Schneider",
  "Fischer",
  "Weber",
  "Meyer",
  "Wagner",
  "Becker",
  "Schulz",
  "Hoffmann",
];
const TRADES = [
  "Bäckerei",
  "Zahnarztpraxis",
  "Autohaus",
  "Steuerkanzlei",
  "Hotel",
  "Fitnessstudio",
  "Handwerksbetrieb",
  "Onlineshop",
];
const IDEAS = [
  "Terminbuchung",
  "Lagerverwaltung",
  "Kundenportal",
  "Rechnungsstellung",
  "Schichtplanung",
  "Bestell-App",
];
const STATUSES = ["New", "In Progress", "Done"] as const;
const SOURCES = ["google", "newsletter", null, "linkedin", null];

/** Fills the (migrated) database at `databasePath`; returns the seconds it took. */
export function seedBenchRequests(databasePath: string, count: number, now = Date.now()): number {
  const started = performance.now();
  const db = new Database(databasePath);
  db.pragma("journal_mode = WAL");
  db.pragma("busy_timeout = 5000");
  const insert = db.prepare(
    `INSERT INTO requests (name, email, phone, company_description, description, status, archived,
       attribution_source, email_key, phone_key, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const history = db.prepare(
    "INSERT INTO request_status_history (request_id, from_status, to_status, changed_at) VALUES (?, 'New', ?, ?)",
  );
  const appointment = db.prepare(
    `INSERT INTO appointments (request_id, provider, external_uid, event_type_key, event_type_name,
       start_time, status, created_at) VALUES (?, 'calcom', ?, 'demo', 'Demo', ?, ?, ?)`,
  );
  // Committed in batches with a larger page cache: one transaction over a million rows spilled
  // pages of its ~20 indexes to the WAL and read them back (hundreds of GB of pread at 100k).
  db.pragma("cache_size = -65536");
  const batch = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const name = `${FIRST[i % 10]} ${LAST[Math.floor(i / 10) % 10]}`;
      const at = now - (count - i) * 60_000;
      const status = STATUSES[i % 3];
      const email = `kunde${i}@example.com`;
      const phone = `+49 30 ${String(1_000_000 + i).slice(0, 4)} ${String(i).padStart(5, "0")}`;
      const { lastInsertRowid } = insert.run(
        `${name} ${i}`,
        email,
        phone,
        `${TRADES[i % TRADES.length]} mit ${(i % 40) + 2} Mitarbeitenden in Berlin`,
        `Wir suchen eine Software für ${IDEAS[i % IDEAS.length]}. Anfrage Nummer ${i}.`,
        status,
        i % 10 === 0 ? 1 : 0,
        SOURCES[i % SOURCES.length],
        emailKey(email),
        phoneKey(phone),
        at,
        at,
      );
      if (status !== "New") history.run(lastInsertRowid, status, at + ((i % 47) + 1) * 3_600_000);
      if (i % 20 === 0) {
        const cancelled = i % 80 === 0;
        appointment.run(
          lastInsertRowid,
          `bench-${i}`,
          at + 86_400_000,
          cancelled ? "CANCELLED" : "ACCEPTED",
          at,
        );
      }
    }
  });
  for (let from = 0; from < count; from += 20_000) batch(from, Math.min(count, from + 20_000));
  db.close();
  return (performance.now() - started) / 1000;
}

/**
 * `BENCH_DATABASE=<file>`: a database seeded before (e.g. the `bench.sqlite` a 1M `bench:admin` left
 * in its temporary directory, checkpointed) is copied to `databasePath` instead of seeding, so the
 * 1M figures of several benches do not each pay the ~2 min seed. Returns a line for the report, or
 * null when the caller should seed. The copy must be made before the server opens the file.
 */
export function copyBenchDatabase(databasePath: string): string | null {
  const source = process.env.BENCH_DATABASE;
  if (!source) return null;
  const started = performance.now();
  copyFileSync(source, databasePath);
  const sqlite = new Database(databasePath, { readonly: true });
  const { n } = sqlite.prepare("SELECT count(*) AS n FROM requests").get() as { n: number };
  sqlite.close();
  return `Copied ${source} (${n} requests) in ${((performance.now() - started) / 1000).toFixed(1)} s`;
}
