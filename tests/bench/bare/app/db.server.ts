import Database from "better-sqlite3";

// A small SQLite file (BARE_DATABASE_PATH) with a few rows; the page reads them once per request.
const db = new Database(process.env.BARE_DATABASE_PATH ?? ":memory:");
db.pragma("journal_mode = WAL");
db.exec("CREATE TABLE IF NOT EXISTS notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)");
if ((db.prepare("SELECT count(*) AS n FROM notes").get() as { n: number }).n === 0) {
  const insert = db.prepare("INSERT INTO notes (text) VALUES (?)");
  for (const text of ["Schnell", "Klein", "Einfach"]) insert.run(text);
}
const select = db.prepare("SELECT id, text FROM notes ORDER BY id LIMIT 10");

export const notes = () => select.all() as { id: number; text: string }[];
