import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { e2eDb } from "./db";
import { expect } from "./fixtures";
import { waitForHydration } from "./hydration";
import { E2E_DATA_DIR } from "./ports";

/** Submits the landing form as a visitor; returns the success card. */
export async function submitVisitorRequest(
  page: Page,
  name: string,
  email: string,
  javaScriptEnabled: boolean,
) {
  await page.goto("/");
  if (javaScriptEnabled) await waitForHydration(page);
  const cookies = page.getByRole("button", { name: "Nur notwendige" });
  if (await cookies.isVisible()) await cookies.click();
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("E-Mail").fill(email);
  await page.getByLabel("Telefon").fill("+49 30 555 1234");
  await page
    .getByLabel("Beschreibe dein Unternehmen")
    .fill("Ein Handwerksbetrieb mit zwölf Leuten in Köln");
  await page.getByLabel("Deine Projektidee (optional)").fill("Eine App für Aufmaß und Angebote.");
  await page.getByRole("button", { name: "Anfrage senden" }).click();
  const success = page.getByTestId("submission-success");
  await expect(success).toContainText(`Vielen Dank, ${name}!`);
  return success;
}

/** The id of the newest request of an e-mail address. */
export function requestIdOf(email: string): number {
  const db = e2eDb();
  try {
    const row = db
      .prepare("SELECT id FROM requests WHERE email = ? ORDER BY id DESC LIMIT 1")
      .get(email) as { id: number } | undefined;
    if (!row) throw new Error(`no request of ${email}`);
    return row.id;
  } finally {
    db.close();
  }
}

/**
 * Runs fn with configuration fields changed (directly in the stack's database) and restores the
 * saved document afterwards, under the same lock as landing.spec.ts's helper.
 */
export async function withConfiguration(patch: Record<string, unknown>, fn: () => Promise<void>) {
  const lock = path.join(E2E_DATA_DIR, "config.lock");
  for (let i = 0; ; i++) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (i > 600) throw new Error("config lock timeout");
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const db = e2eDb();
  const row = db.prepare("SELECT data FROM configuration WHERE id = 1").get() as
    | { data: string }
    | undefined;
  const write = (data: string) =>
    db
      .prepare(
        "INSERT INTO configuration (id, data, updated_at) VALUES (1, ?, ?) ON CONFLICT(id) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at",
      )
      .run(data, Date.now());
  try {
    write(JSON.stringify({ ...(row ? JSON.parse(row.data) : {}), ...patch }));
    await fn();
  } finally {
    if (row) write(row.data);
    else db.prepare("DELETE FROM configuration WHERE id = 1").run();
    db.close();
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Seeds a plain request straight into the database; returns its id. */
export function seedPlainRequest(name: string, email: string): number {
  const db = e2eDb();
  try {
    return Number(
      db
        .prepare(
          "INSERT INTO requests (name, email, phone, company_description, description) VALUES (?, ?, ?, ?, ?)",
        )
        .run(
          name,
          email,
          "+49 30 1234 5678",
          "Eine Bäckerei mit drei Filialen in Berlin",
          "Eine App für Vorbestellungen und Abholzeiten.",
        ).lastInsertRowid,
    );
  } finally {
    db.close();
  }
}
