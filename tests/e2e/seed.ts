// Seeding for e2e specs, through the app's own server modules (this Playwright worker opens its
// stack's database via app/server, which knows the layout) or its public HTTP API. Every seed
// made through the `seed` fixture is removed again after the test (tests/e2e/fixtures.ts).
import { randomBytes, scryptSync } from "node:crypto";
import { desc, eq, inArray } from "drizzle-orm";
import type { Configuration } from "~/lib/configuration";
import { deleteAdmin, findAdminByEmail, insertAdmin } from "~/server/accounts/admins.server";
import { createAffiliateCode, deleteAffiliateCode } from "~/server/affiliates.server";
import { deleteAppointment } from "~/server/appointments/appointments.server";
import {
  getConfiguration,
  saveConfiguration,
  saveLogoReference,
} from "~/server/configuration/configuration.server";
import { db, transaction } from "~/server/platform/db.server";
import { createLimiter } from "~/server/platform/rate-limit.server";
import { adminExtrasOf } from "~/server/requests/admin-extras.server";
import { deleteRequest } from "~/server/requests/manage.server";
import { listAllRequests } from "~/server/requests/queries.server";
import { loadRequestJson } from "~/server/requests/serialize.server";
import {
  SCRIPT_FREE_CLIENT_LIMITER,
  SCRIPT_FREE_PER_CLIENT,
} from "~/server/spam/script-free.server";
import {
  accessibilityFeedback,
  appointments,
  invitations,
  jobRuns,
  mailOutbox,
  requests,
} from "~db/schema";
import { solvedAltcha } from "../altcha-solution";
import { pdfBytes, webmBytes } from "../integration/landing-fixtures";
import { FIRST_ADMIN } from "./stack";

export type SeededAdmin = { id: number; username: string; password: string; email: string };

const unique = () => randomBytes(4).toString("hex");

/** Points this worker's server modules at its stack's database (before their first use). */
export function useStackDatabase(app: {
  databasePath: string;
  uploadsDir: string;
  url: string;
  smtpUrl: string;
}) {
  process.env.DATABASE_PATH = app.databasePath;
  process.env.UPLOADS_DIR = app.uploadsDir;
  process.env.APP_URL = app.url;
  // The modules that queue mail ask whether the server sends any (its SMTP stand-in).
  process.env.SMTP_URL = app.smtpUrl;
  process.env.LOG_LEVEL = "silent";
}

/**
 * A stored password in the app's format ("scrypt$N$r$p$salt$hash", app/server/platform/crypto.server.ts)
 * with cheaper parameters than today's. The login verifies a hash with its own parameters and
 * re-hashes it with today's (ADR 249), so a seeded admin costs the run one full scrypt (the
 * server's, at the first login) instead of two (ADR 331).
 */
function quickPasswordHash(password: string): string {
  const params = { N: 2 ** 10, r: 8, p: 1 };
  const salt = randomBytes(16);
  const key = scryptSync(password.normalize("NFKC"), salt, 64, params);
  return [
    "scrypt",
    params.N,
    params.r,
    params.p,
    salt.toString("base64url"),
    key.toString("base64url"),
  ].join("$");
}

/** An active admin (password already changed unless `passwordChanged: false`). */
export async function seedAdmin(
  overrides: {
    username?: string;
    password?: string;
    email?: string;
    passwordChanged?: boolean;
  } = {},
): Promise<SeededAdmin> {
  const suffix = unique();
  const username = overrides.username ?? `admin-${suffix}`;
  const password = overrides.password ?? `passwort-${suffix}`;
  const email = overrides.email ?? `${username}@example.com`;
  const passwordHash = quickPasswordHash(password);
  const row = transaction((tx) =>
    insertAdmin(tx, {
      username,
      email,
      passwordHash,
      isActive: true,
      passwordChanged: overrides.passwordChanged ?? true,
    }),
  );
  return { id: row.id, username, password, email: row.email };
}

/** The stored admin with this e-mail address (e.g. the stack's first admin), or undefined. */
export const findAdmin = (email: string) => findAdminByEmail(email);

/** Removes a seeded admin (its assignments move to the first admin); gone already is fine. */
export function removeAdmin(id: number) {
  const first = findAdminByEmail(FIRST_ADMIN.email);
  if (first && first.id !== id) deleteAdmin(first.id, id);
}

export type SeedRequestInput = {
  name?: string;
  email?: string;
  phone?: string;
  companyDescription?: string;
  description?: string;
  /** Attach a small PDF named like this. */
  pdf?: string;
  /** Attach a short voice recording (WebM). */
  audio?: boolean;
  /** An affiliate code typed in or taken from `?code=`. */
  affiliateCode?: string;
  /** Attribution fields as the landing page sends them. */
  utmSource?: string;
  referrer?: string;
};

/** Submits a request through the public API (POST /api/requests), like the landing page does. */
export async function seedRequest(baseUrl: string, input: SeedRequestInput = {}) {
  const marker = unique();
  const form = new FormData();
  form.set("name", input.name ?? `Kundin ${marker}`);
  form.set("email", input.email ?? `${marker}@example.com`);
  form.set("phone", input.phone ?? "+49 30 1234 5678");
  form.set("companyDescription", input.companyDescription ?? `Bäckerei ${marker} in Berlin`);
  form.set("description", input.description ?? `Eine App für Vorbestellungen ${marker}.`);
  if (input.affiliateCode) form.set("affiliateCode", input.affiliateCode);
  if (input.utmSource) form.set("utmSource", input.utmSource);
  if (input.referrer) form.set("referrer", input.referrer);
  if (input.pdf) {
    form.append(
      "attachments",
      new Blob([new Uint8Array(pdfBytes())], { type: "application/pdf" }),
      input.pdf,
    );
  }
  if (input.audio) {
    form.append(
      "audio",
      new Blob([new Uint8Array(webmBytes())], { type: "audio/webm" }),
      "aufnahme.webm",
    );
  }
  // A solved proof of work, as the landing page's widget sends it: the normal flow (ADR 250).
  form.set("altcha", await solvedAltcha(baseUrl));
  const res = await fetch(`${baseUrl}/api/requests`, { method: "POST", body: form });
  if (res.status !== 201) throw new Error(`seedRequest: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { id: number }).id;
}

/** The stored request with this e-mail address (the newest), as the spec's Request JSON. */
/** The stored (not archived) request of this address, also when the spam quarantine holds it. */
export function findRequestByEmail(email: string) {
  return (
    [
      ...listAllRequests({ archived: false }),
      ...listAllRequests({ archived: false, quarantined: true }),
    ].find((r) => r.email === email) ?? null
  );
}

/** The stored request with this id (spec JSON), or null when it is gone. */
export const findRequest = (id: number) => loadRequestJson(id);

export const removeRequest = (id: number) => deleteRequest(id);

/** The admin-only state of a request (voice transcript and its status, messages; ADRs 272, 273). */
export const adminExtras = (id: number) => adminExtrasOf([id]).get(id);
/** Whether the spam quarantine holds this request (ADR 252; the admin side shows it as "Prüfen"). */
export function isQuarantined(id: number): boolean {
  const row = db()
    .select({ quarantinedAt: requests.quarantinedAt })
    .from(requests)
    .where(eq(requests.id, id))
    .get();
  if (!row) throw new Error(`no request ${id}`);
  return row.quarantinedAt !== null;
}

/**
 * Puts a seeded request into the spam quarantine, as the submission's verdict does (sets
 * quarantined_at through the app's db() and typed schema; no server flow does it on demand).
 */
export function quarantineRequest(id: number) {
  db().update(requests).set({ quarantinedAt: new Date() }).where(eq(requests.id, id)).run();
}

/**
 * A request received earlier (ADR 346): its promises' due times moved, as if it had come in days
 * ago. No server flow backdates a request, so this writes through the app's db() and schema.
 */
export function setPromisesDue(id: number, due: { contactDueAt?: Date; trialDueAt?: Date }) {
  db().update(requests).set(due).where(eq(requests.id, id)).run();
}

/** The stored stage id of a request (the board's moves are checked against it). */
export function stageOf(id: number): string | undefined {
  return db().select({ stage: requests.stage }).from(requests).where(eq(requests.id, id)).get()
    ?.stage;
}

/**
 * An appointment in the scheduling cache with any status the services report (ACCEPTED,
 * CONFIRMED, DELETED …). No server flow creates arbitrary statuses, so this writes through the
 * app's own db() and typed schema; removed with the app's deleteAppointment().
 */
export function seedAppointment(input: {
  name: string;
  startTime: Date;
  status: string;
  durationMinutes?: number;
  requestId?: number;
}) {
  return db()
    .insert(appointments)
    .values({
      requestId: input.requestId ?? null,
      provider: "builtin",
      externalUid: `seed-${unique()}-${input.startTime.getTime()}`,
      eventTypeKey: "demo",
      eventTypeName: input.name,
      startTime: input.startTime,
      durationMinutes: input.durationMinutes ?? 30,
      status: input.status,
    })
    .returning()
    .get();
}

export const removeAppointment = (id: number) => deleteAppointment(id);

export function seedAffiliateCode(input: { name?: string; email?: string; discountValue: number }) {
  return createAffiliateCode({
    name: input.name ?? "Partner",
    email: input.email ?? "partner@example.com",
    discountValue: input.discountValue,
  });
}

export const removeAffiliateCode = (id: number) => deleteAffiliateCode(id);

/** Saves `patch` over the current configuration; returns a function restoring the previous one. */
export function patchConfiguration(patch: Partial<Configuration>) {
  const previous = getConfiguration();
  const saved = saveConfiguration({ ...previous, ...patch });
  if (!saved.ok) throw new Error(`patchConfiguration: ${JSON.stringify(saved.fieldErrors)}`);
  return () => {
    // The logo is set only by its upload (ADR 293): put the previous one back that way first, or
    // a test that uploaded one would leave its brand behind (and the restore would be refused).
    const logo = saveLogoReference(previous.branding.logo);
    const restored = logo.ok ? saveConfiguration(previous) : logo;
    if (!restored.ok)
      throw new Error(`patchConfiguration restore: ${JSON.stringify(restored.fieldErrors)}`);
  };
}

/** The appointment of a request (the newest), read through the app's db() and typed schema. */
export function appointmentOf(requestId: number) {
  const row = db()
    .select()
    .from(appointments)
    .where(eq(appointments.requestId, requestId))
    .orderBy(desc(appointments.id))
    .get();
  if (!row) throw new Error(`no appointment of request ${requestId}`);
  return row;
}

/** The pending invitation of an address (its id for the users page's actions). */
export function invitationIdOf(email: string): number {
  const row = db().select().from(invitations).where(eq(invitations.email, email)).get();
  if (!row) throw new Error(`no invitation for ${email}`);
  return row.id;
}

/**
 * Forgets when the held-request notice last went out (ADR 327), so a spec can send it now;
 * job_runs is the place that job keeps it.
 */
export function forgetQuarantineMails() {
  db()
    .delete(jobRuns)
    .where(inArray(jobRuns.name, ["quarantine-notice"]))
    .run();
}

/**
 * Forgets the script-free releases this worker's tests have used (ADR 326): every test speaks from
 * 127.0.0.1, and the server releases at most SCRIPT_FREE_PER_CLIENT (3) requests per client and
 * day by a right answer. A test that answers does not inherit the answers of the tests before it
 * in its worker (which ones those are depends on how Playwright spreads the tests).
 */
export function forgetScriptFreeReleases() {
  createLimiter(SCRIPT_FREE_CLIENT_LIMITER, SCRIPT_FREE_PER_CLIENT).resetMatching("", "");
}

/** The feedback entries of the accessibility statement, oldest first (ADR 340). */
export function feedbackEntries() {
  return db().select().from(accessibilityFeedback).orderBy(accessibilityFeedback.id).all();
}

/** Removes feedback entries (a test's own, after it). */
export function removeFeedback(ids: number[]) {
  for (const id of ids)
    db().delete(accessibilityFeedback).where(eq(accessibilityFeedback.id, id)).run();
}

/** The recipients of every mail in the outbox (queued, sent or failed). */
export function outboxRecipients(): string[] {
  return db()
    .select({ to: mailOutbox.to })
    .from(mailOutbox)
    .all()
    .map((m) => m.to);
}

/** Stores a summary as an older version could have (e.g. an AI answer `{}`, stored before ADR 342). */
export function storeSummary(requestId: number, summary: string) {
  db().update(requests).set({ summary }).where(eq(requests.id, requestId)).run();
}
