import { readFileSync } from "node:fs";
import Database from "better-sqlite3";
import { expect, it } from "vitest";

it("migration 0005 strips attendee data from stored appointment payloads and names", () => {
  const sqlite = new Database(":memory:");
  sqlite.exec(
    "CREATE TABLE appointments (id INTEGER PRIMARY KEY, provider TEXT, event_type_name TEXT, raw_data TEXT)",
  );
  const insert = sqlite.prepare(
    "INSERT INTO appointments (provider, event_type_name, raw_data) VALUES ('calcom', ?, ?)",
  );
  insert.run(
    "Demo between Olga and Paula Privat",
    JSON.stringify({
      uid: "u1",
      title: "Demo between Olga and Paula Privat",
      eventTitle: "Demo",
      status: "ACCEPTED",
      length: 30,
      attendees: [{ name: "Paula Privat", email: "paula@example.com" }],
      responses: { name: "Paula Privat", notes: "Geheim" },
      location: { type: "phone", value: "+49 170 1234567" },
    }),
  );
  insert.run("Demo", JSON.stringify({ uid: "u2", title: "Demo between Olga and Paul" }));
  insert.run("Beratung", JSON.stringify({ attendees: [{ email: "paula@example.com" }] }));
  insert.run("Demo", null);
  sqlite.exec(readFileSync("db/migrations/0005_scrub_appointment_raw_data.sql", "utf8"));
  const rows = sqlite
    .prepare("SELECT event_type_name AS name, raw_data FROM appointments ORDER BY id")
    .all();
  expect(rows).toEqual([
    {
      name: "Demo",
      raw_data: JSON.stringify({ uid: "u1", eventTitle: "Demo", status: "ACCEPTED", length: 30 }),
    },
    // Named by an API booking (event type title): unchanged.
    { name: "Demo", raw_data: JSON.stringify({ uid: "u2" }) },
    { name: "Beratung", raw_data: null },
    { name: "Demo", raw_data: null },
  ]);
  sqlite.close();
});
