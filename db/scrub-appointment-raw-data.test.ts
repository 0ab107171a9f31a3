import { readFileSync } from "node:fs";
import Database from "better-sqlite3";
import { expect, it } from "vitest";

it("migration 0005 strips attendee data from stored appointment payloads", () => {
  const sqlite = new Database(":memory:");
  sqlite.exec("CREATE TABLE appointments (id INTEGER PRIMARY KEY, raw_data TEXT)");
  const insert = sqlite.prepare("INSERT INTO appointments (raw_data) VALUES (?)");
  insert.run(
    JSON.stringify({
      uid: "u1",
      status: "ACCEPTED",
      length: 30,
      attendees: [{ name: "Paula Privat", email: "paula@example.com" }],
      responses: { name: "Paula Privat", notes: "Geheim" },
      location: { type: "phone", value: "+49 170 1234567" },
    }),
  );
  insert.run(JSON.stringify({ provider: "builtin" }));
  insert.run(JSON.stringify({ attendees: [{ email: "paula@example.com" }] }));
  insert.run(null);
  sqlite.exec(readFileSync("db/migrations/0005_scrub_appointment_raw_data.sql", "utf8"));
  const rows = sqlite.prepare("SELECT raw_data FROM appointments ORDER BY id").all();
  expect(rows).toEqual([
    { raw_data: JSON.stringify({ uid: "u1", status: "ACCEPTED", length: 30 }) },
    { raw_data: JSON.stringify({ provider: "builtin" }) },
    { raw_data: null },
    { raw_data: null },
  ]);
  sqlite.close();
});
