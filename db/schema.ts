import { type SQLWrapper, sql } from "drizzle-orm";
import {
  type AnySQLiteColumn,
  index,
  integer,
  primaryKey,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";

/**
 * A request's channel: its utm_source, else the host of its external referrer ("www.google.com"),
 * else NULL (direct). The dashboard groups by it through an index on this very expression, so the
 * query must build it with this function too (SQLite matches expression indexes by their form).
 */
export const channelOf = (source: SQLWrapper, referrer: SQLWrapper) => {
  const rest = sql`substr(${referrer}, instr(${referrer}, '://') + 3)`;
  return sql`coalesce(${source}, CASE WHEN instr(${referrer}, '://') > 0 THEN CASE WHEN instr(${rest}, '/') > 0 THEN substr(${rest}, 1, instr(${rest}, '/') - 1) ELSE ${rest} END END)`;
};

/** Epoch milliseconds; every timestamp in the database uses this. */
const ms = (name: string) => integer(name, { mode: "timestamp_ms" });
const now = sql`(cast(unixepoch('subsecond') * 1000 as integer))`;

/** The row's own id (every table with a single-column key). */
const rowId = () => integer("id").primaryKey({ autoIncrement: true });
/** When the row was written (and, for `updatedAt`, last changed). */
const createdAt = () => ms("created_at").notNull().default(now);
const updatedAt = () => ms("updated_at").notNull().default(now);
/** The row belongs to `owner`'s row and is deleted with it. */
const ownerId = (name: string, owner: () => AnySQLiteColumn) =>
  integer(name).notNull().references(owner, { onDelete: "cascade" });

import { REQUEST_STATUSES } from "../app/lib/request-status";
import { TRANSCRIPT_STATUSES } from "../app/lib/transcript-status";

export type { RequestStatus } from "../app/lib/request-status";
export { REQUEST_STATUSES };

export const admins = sqliteTable(
  "admins",
  {
    id: rowId(),
    username: text("username").notNull(),
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
    passwordChanged: integer("password_changed", { mode: "boolean" }).notNull().default(false),
    lastLogin: ms("last_login"),
    /**
     * When the account first became active (created active, activated, an invitation activated
     * directly); never cleared by a deactivation. Kept by triggers (migration 0029, ADR 358): an
     * inactive account without it has never been active and awaits its activation.
     */
    activatedAt: ms("activated_at"),
    createdAt: createdAt(),
    /** TOTP secret (base32), sealed with a key derived from SESSION_SECRET (ADR 256); set while enrolling too. */
    totpSecret: text("totp_secret"),
    /** The last accepted TOTP time step: a code of this step or an earlier one is refused (each code once). */
    totpLastStep: integer("totp_last_step"),
    /** The second factor is on (confirmed with a code); off while an enrolment is only started. */
    totpEnabled: integer("totp_enabled", { mode: "boolean" }).notNull().default(false),
    /** A passkey of this admin may replace password and code at the login (ADR 280; default on). */
    passkeyLogin: integer("passkey_login", { mode: "boolean" }).notNull().default(true),
    /** The 07:30 morning digest (ADR 352): on by default, turned off in Account-Einstellungen. */
    morningDigest: integer("morning_digest", { mode: "boolean" }).notNull().default(true),
    /** An absence (inclusive Berlin days, YYYY-MM-DD): fair assignment skips the admin (ADR 353). */
    absentFrom: text("absent_from"),
    absentUntil: text("absent_until"),
  },
  (t) => [
    uniqueIndex("admins_username_unique").on(sql`lower(${t.username})`),
    uniqueIndex("admins_email_unique").on(sql`lower(${t.email})`),
  ],
);

export const sessions = sqliteTable(
  "sessions",
  {
    /** SHA-256 of the random token; the token itself is never stored. */
    tokenHash: text("token_hash").primaryKey(),
    adminId: ownerId("admin_id", () => admins.id),
    createdAt: createdAt(),
    expiresAt: ms("expires_at").notNull(),
    lastUsedAt: ms("last_used_at").notNull().default(now),
    userAgent: text("user_agent"),
    /** The random id the session list and `DELETE /api/admin/account/sessions/{id}` name it by. */
    publicId: text("public_id"),
    /** The client's network at login: the IP masked to /24 (IPv4) or /48 (IPv6), never the address. */
    network: text("network"),
    /**
     * The last step-up of this session (password or a current code, ADR 315): power over other
     * admins needs one of the last 5 minutes. Gone with the row at logout.
     */
    stepUpAt: ms("step_up_at"),
  },
  (t) => [
    index("sessions_admin_idx").on(t.adminId),
    uniqueIndex("sessions_public_id_unique").on(t.publicId),
  ],
);

/**
 * Scoped API tokens for integrations (ADR 260): SHA-256 of the token only, its scopes
 * (JSON array of the fixed list), an optional expiry; revoked tokens stay listed until deleted with
 * their admin.
 */
export const apiTokens = sqliteTable(
  "api_tokens",
  {
    id: rowId(),
    adminId: ownerId("admin_id", () => admins.id),
    name: text("name").notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    scopes: text("scopes").notNull(),
    createdAt: createdAt(),
    expiresAt: ms("expires_at"),
    lastUsedAt: ms("last_used_at"),
    revokedAt: ms("revoked_at"),
  },
  (t) => [index("api_tokens_admin_idx").on(t.adminId)],
);

/** One-time recovery codes of the second factor (ADR 256): SHA-256 only, used once. */
export const recoveryCodes = sqliteTable(
  "recovery_codes",
  {
    id: rowId(),
    adminId: ownerId("admin_id", () => admins.id),
    codeHash: text("code_hash").notNull(),
    createdAt: createdAt(),
    usedAt: ms("used_at"),
  },
  (t) => [index("recovery_codes_admin_idx").on(t.adminId)],
);

/**
 * The step between password and code (ADR 256): a random challenge (SHA-256 stored) that proves the
 * password was right, lives 5 minutes and is deleted when used. It opens nothing by itself.
 */
export const loginChallenges = sqliteTable(
  "login_challenges",
  {
    tokenHash: text("token_hash").primaryKey(),
    adminId: ownerId("admin_id", () => admins.id),
    redirectTo: text("redirect_to"),
    createdAt: createdAt(),
    expiresAt: ms("expires_at").notNull(),
  },
  (t) => [index("login_challenges_admin_idx").on(t.adminId)],
);

/**
 * Passkeys (WebAuthn credentials) of an admin (ADR 280): the credential id and COSE public
 * key (base64url), the signature counter (replays with a counter that does not grow are refused),
 * the name the admin gave it.
 */
export const passkeys = sqliteTable(
  "passkeys",
  {
    id: rowId(),
    adminId: ownerId("admin_id", () => admins.id),
    credentialId: text("credential_id").notNull().unique(),
    publicKey: text("public_key").notNull(),
    counter: integer("counter").notNull().default(0),
    /** JSON array of the authenticator's transports ("internal", "usb", …), a hint for the browser. */
    transports: text("transports"),
    name: text("name").notNull(),
    createdAt: createdAt(),
    lastUsedAt: ms("last_used_at"),
  },
  (t) => [index("passkeys_admin_idx").on(t.adminId)],
);

/**
 * WebAuthn challenges (ADR 280): SHA-256 of the challenge, what it is for ("register", "login"
 * without a name, "second-factor" after the password), 5 minutes, deleted when used.
 */
export const passkeyChallenges = sqliteTable("passkey_challenges", {
  challengeHash: text("challenge_hash").primaryKey(),
  purpose: text("purpose", { enum: ["register", "login", "second-factor"] }).notNull(),
  adminId: integer("admin_id").references(() => admins.id, { onDelete: "cascade" }),
  /** The password step's challenge (login_challenges) a second-factor challenge belongs to. */
  loginChallengeHash: text("login_challenge_hash"),
  /** The name of the passkey being registered. */
  name: text("name"),
  expiresAt: ms("expires_at").notNull(),
});

export const invitations = sqliteTable(
  "invitations",
  {
    id: rowId(),
    email: text("email").notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    invitedBy: integer("invited_by").references(() => admins.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    expiresAt: ms("expires_at").notNull(),
    usedAt: ms("used_at"),
  },
  (t) => [index("invitations_email_idx").on(t.email)],
);

export const passwordResets = sqliteTable("password_resets", {
  id: rowId(),
  adminId: ownerId("admin_id", () => admins.id),
  tokenHash: text("token_hash").notNull().unique(),
  createdAt: createdAt(),
  expiresAt: ms("expires_at").notNull(),
  usedAt: ms("used_at"),
});

export const requests = sqliteTable(
  "requests",
  {
    id: rowId(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    phone: text("phone").notNull(),
    companyDescription: text("company_description").notNull(),
    description: text("description").notNull().default(""),
    summary: text("summary"),
    status: text("status", { enum: REQUEST_STATUSES }).notNull().default("New"),
    archived: integer("archived", { mode: "boolean" }).notNull().default(false),
    /** Storage key of the voice recording (same storage as attachments). */
    audioKey: text("audio_key"),
    audioType: text("audio_type"),
    affiliateCode: text("affiliate_code"),
    /** JSON object: preparation field name -> text. */
    preparationData: text("preparation_data", { mode: "json" })
      .$type<Record<string, string>>()
      .notNull()
      .default(sql`'{}'`),
    /** SHA-256 of the visitor's per-request secret (history cookie). */
    visitorSecretHash: text("visitor_secret_hash"),
    /** Attempts of the background AI summary (0 = not tried yet). */
    summaryAttempts: integer("summary_attempts").notNull().default(0),
    /** Attribution of the visit (utm_*, external referrer, landing path); null when unknown. */
    attributionSource: text("attribution_source"),
    attributionMedium: text("attribution_medium"),
    attributionCampaign: text("attribution_campaign"),
    attributionReferrer: text("attribution_referrer"),
    attributionLandingPath: text("attribution_landing_path"),
    /** Same-person keys (app/lib/contact-keys.ts): duplicate leads; null when erased. */
    emailKey: text("email_key"),
    phoneKey: text("phone_key"),
    /**
     * Time of the first status change (the earliest request_status_history row), kept by a
     * trigger (migration 0010) for the dashboard's median time to the first change.
     */
    firstStatusChangeAt: ms("first_status_change_at"),
    /**
     * Time of the last change of preparationData (null: never changed since migration 0012, which
     * filled in updated_at). A save based on an older state conflicts only when this is newer.
     */
    preparationUpdatedAt: ms("preparation_updated_at"),
    /**
     * Set when the submission came without a valid proof of work or matched the blocklist (spam
     * quarantine): none of the new-request side effects ran; null = a normal request (or released).
     */
    quarantinedAt: ms("quarantined_at"),
    /** What the voice recording says (ADR 272); null until transcribed. Searched (FTS5). */
    voiceTranscript: text("voice_transcript"),
    /**
     * The transcription job (ADR 272): pending (waits for the worker), done, failed (attempts used
     * up), off (recorded while transcription was not set up); null without a recording.
     */
    voiceTranscriptStatus: text("voice_transcript_status", { enum: TRANSCRIPT_STATUSES }),
    /** Attempts of the current transcription run, and when the next one is due (backoff). */
    voiceTranscriptAttempts: integer("voice_transcript_attempts").notNull().default(0),
    voiceTranscriptDueAt: ms("voice_transcript_due_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /**
     * The pipeline stage (ADR 345): the stable id of a stage of `pipeline.stages`; the status is
     * the stage's. Requests stored before the pipeline got the first stage of their status.
     */
    stage: text("stage").notNull().default("new"),
    /** The reason chosen when the request was moved to a stage that asks for one ("Verloren"). */
    lostReason: text("lost_reason"),
    /**
     * The two promises (ADR 346): when the first contact and the trial version are due (set when
     * the request is received, or released from the spam check; null while held and for requests
     * stored before) and when they were kept (first message or a stage past "Neu"; the trial's
     * delivery). Due times are the last millisecond of a second: kept = done_at <= due_at.
     */
    contactDueAt: ms("contact_due_at"),
    contactDoneAt: ms("contact_done_at"),
    trialDueAt: ms("trial_due_at"),
    trialDoneAt: ms("trial_done_at"),
    /** The link of the delivered trial version (https), as mailed to the lead. */
    trialUrl: text("trial_url"),
  },
  (t) => [
    index("requests_archived_created_idx").on(t.archived, t.createdAt),
    index("requests_status_idx").on(t.archived, t.status, t.createdAt),
    index("requests_source_idx").on(t.archived, t.attributionSource, t.createdAt),
    index("requests_email_key_idx").on(t.emailKey, t.id),
    index("requests_phone_key_idx").on(t.phoneKey, t.id),
    // The transcription worker's queue (ADR 272): only pending recordings, by due time.
    index("requests_transcript_pending_idx")
      .on(t.voiceTranscriptDueAt)
      .where(sql`${t.voiceTranscriptStatus} = 'pending'`),
    // The quarantine (spam) is small: a partial index finds it without reading normal requests.
    index("requests_quarantined_idx")
      .on(t.quarantinedAt)
      .where(sql`${t.quarantinedAt} IS NOT NULL`),
    // Search (ADR 175): the list filters of an FTS5 hit, looked up by id without reading the row.
    index("requests_search_filter_idx").on(
      t.id,
      t.archived,
      t.status,
      t.createdAt,
      t.attributionSource,
    ),
    // The ID sorts of the list (ADR 175): pages read in index order, not 100k rows sorted.
    index("requests_archived_id_idx").on(t.archived, t.id),
    index("requests_status_id_idx").on(t.archived, t.status, t.id),
    index("requests_source_id_idx").on(t.archived, t.attributionSource, t.id),
    // Dashboard (ADR 175): counts per week and per source / affiliate code over a time window.
    index("requests_created_idx").on(t.createdAt),
    index("requests_source_created_idx").on(t.attributionSource, t.createdAt),
    index("requests_affiliate_created_idx").on(t.affiliateCode, t.createdAt),
    // Counts per channel (utm_source, else the referrer's host), the "Anfragen nach Quelle" chart.
    index("requests_channel_created_idx").on(
      channelOf(t.attributionSource, t.attributionReferrer),
      t.createdAt,
    ),
    // Median time to the first status change: read in order of the delay, not sorted per query.
    index("requests_first_change_idx").on(
      sql`(${t.firstStatusChangeAt} - ${t.createdAt})`,
      t.createdAt,
    ),
    // Partial indexes (ADR 275): small jobs never scan the table. Their WHERE is written with
    // literals, so the queries that use them must say the very same (SQLite matches them by form).
    // The AI summary job's next candidates (oldest first) and the failures /metrics reports.
    index("requests_summary_pending_idx")
      .on(t.id)
      .where(sql`${t.summary} IS NULL AND ${t.summaryAttempts} < 3 AND ${t.quarantinedAt} IS NULL`),
    index("requests_summary_failed_idx")
      .on(t.id)
      .where(sql`${t.summary} IS NULL AND ${t.summaryAttempts} > 0`),
    // Stored voice recordings (the upload sweep's referenced keys).
    index("requests_audio_key_idx").on(t.audioKey).where(sql`${t.audioKey} IS NOT NULL`),
    // Retention: requests not yet anonymised, by their last change.
    index("requests_retention_idx").on(t.updatedAt).where(sql`${t.email} <> ''`),
    // The board's columns (ADR 347): a stage's active requests, newest first. The stage leads, so
    // no list without a stage filter mistakes it for an index of the archive flag.
    index("requests_stage_idx").on(t.stage, t.archived, t.createdAt),
    // The promises (ADR 346): open ones by due time ("fällig", "überfällig", the dashboard) and
    // done ones by due time (kept in the last 30 days). Literal WHEREs: queries repeat them.
    index("requests_contact_open_idx")
      .on(t.contactDueAt, t.status, t.archived)
      .where(sql`${t.contactDoneAt} IS NULL AND ${t.contactDueAt} IS NOT NULL`),
    index("requests_trial_open_idx")
      .on(t.trialDueAt, t.status, t.archived)
      .where(sql`${t.trialDoneAt} IS NULL AND ${t.trialDueAt} IS NOT NULL`),
    index("requests_contact_done_idx")
      .on(t.contactDueAt, t.contactDoneAt)
      .where(sql`${t.contactDoneAt} IS NOT NULL AND ${t.contactDueAt} IS NOT NULL`),
    index("requests_trial_done_idx")
      .on(t.trialDueAt, t.trialDoneAt)
      .where(sql`${t.trialDoneAt} IS NOT NULL AND ${t.trialDueAt} IS NOT NULL`),
  ],
);

export const requestAssignees = sqliteTable(
  "request_assignees",
  {
    requestId: ownerId("request_id", () => requests.id),
    adminId: ownerId("admin_id", () => admins.id),
    assignedAt: ms("assigned_at").notNull().default(now),
  },
  (t) => [
    primaryKey({ columns: [t.requestId, t.adminId] }),
    index("request_assignees_admin_idx").on(t.adminId),
  ],
);

export const attachments = sqliteTable(
  "attachments",
  {
    id: rowId(),
    requestId: ownerId("request_id", () => requests.id),
    /** Random storage key; also the public "filename" of /api/uploads/{filename}. */
    filename: text("filename").notNull().unique(),
    originalName: text("original_name").notNull(),
    mimeType: text("mime_type").notNull(),
    size: integer("size").notNull(),
    uploadedAt: ms("uploaded_at").notNull().default(now),
  },
  (t) => [index("attachments_request_idx").on(t.requestId)],
);

export const affiliateCodes = sqliteTable(
  "affiliate_codes",
  {
    id: rowId(),
    code: text("code").notNull(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    discountValue: integer("discount_value").notNull(),
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("affiliate_codes_code_unique").on(sql`upper(${t.code})`)],
);

/** One row (id = 1) holding the whole configuration document as validated JSON. */
export const configuration = sqliteTable("configuration", {
  id: integer("id").primaryKey(),
  data: text("data", { mode: "json" }).notNull(),
  updatedAt: updatedAt(),
});

export const APPOINTMENT_PROVIDERS = ["builtin", "calcom"] as const;
export const HELD_BOOKING_KINDS = ["holds", "waits", "gone"] as const;

export const appointments = sqliteTable(
  "appointments",
  {
    id: rowId(),
    requestId: integer("request_id").references(() => requests.id, { onDelete: "set null" }),
    provider: text("provider", { enum: APPOINTMENT_PROVIDERS }).notNull(),
    /** Booking uid at the scheduling service (Cal.com uid; built-in: a random uid). */
    externalUid: text("external_uid").notNull().unique(),
    eventTypeKey: text("event_type_key").notNull(),
    eventTypeName: text("event_type_name").notNull(),
    startTime: ms("start_time").notNull(),
    durationMinutes: integer("duration_minutes").notNull().default(30),
    /** Upper-case status as the scheduling service reports it (ACCEPTED, PENDING, CANCELLED, ...). */
    status: text("status").notNull().default("PENDING"),
    location: text("location"),
    url: text("url"),
    rawData: text("raw_data", { mode: "json" }),
    cachedAt: ms("cached_at"),
    createdAt: createdAt(),
    /**
     * Revision of the built-in booking: the .ics SEQUENCE and the version the visitor's manage
     * link is signed with (raised on reschedule and cancel, so older links and invites are outdated).
     */
    sequence: integer("sequence").notNull().default(0),
    /** The video-call link an admin set for this booking (https; else the settings' fixed room). */
    videoUrl: text("video_url"),
    /**
     * The admin who takes this demo when the admins who take demos are the hosts (ADR 338):
     * overlap, buffers and the daily maximum hold per host; NULL = the whole team (blocks everyone).
     */
    hostAdminId: integer("host_admin_id").references(() => admins.id, { onDelete: "set null" }),
    /**
     * Set when the booking's last check could not reach a calendar and it was booked on the last
     * known busy times (ADR 337): the card shows it.
     */
    calendarNote: text("calendar_note"),
    /**
     * A booking made while its request was held in the spam quarantine (ADR 355): `holds` — it
     * holds its slot (one of `spam.heldBookingsPerDay` a Berlin day); `waits` — above that cap
     * (or at Cal.com): recorded with status HELD, holding no slot until the release checks it
     * again; `gone` — the release found the slot taken ("Termin nicht mehr frei"). NULL: an
     * ordinary booking.
     */
    heldBooking: text("held_booking", { enum: HELD_BOOKING_KINDS }),
  },
  (t) => [
    index("appointments_start_idx").on(t.startTime),
    index("appointments_request_idx").on(t.requestId),
    // Two visitors can never hold the same built-in slot of one host (the team: host 0); a HELD
    // booking holds no slot (ADR 355).
    uniqueIndex("appointments_builtin_host_slot_unique")
      .on(t.startTime, sql`coalesce(${t.hostAdminId}, 0)`)
      .where(sql`provider = 'builtin' AND status NOT IN ('CANCELLED', 'HELD')`),
    // The held bookings' daily cap counts today's holds from this small partial index (ADR 355).
    index("appointments_held_idx")
      .on(t.heldBooking, t.createdAt)
      .where(sql`held_booking IS NOT NULL`),
  ],
);

export const MAIL_STATUSES = ["pending", "sent", "failed"] as const;

/** A file attached to an outbox mail; `method` marks an iCalendar invite (REQUEST, CANCEL). */
export type MailAttachment = {
  filename: string;
  contentType: string;
  content: string;
  method?: string;
};

export const mailOutbox = sqliteTable(
  "mail_outbox",
  {
    id: rowId(),
    /** Comma-separated recipients. */
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html").notNull(),
    kind: text("kind").notNull().default("generic"),
    /** The request whose personal data the mail carries: erasing the request removes the mail. */
    requestId: integer("request_id").references(() => requests.id, { onDelete: "cascade" }),
    status: text("status", { enum: MAIL_STATUSES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    nextAttemptAt: ms("next_attempt_at").notNull().default(now),
    /** Whether token links in text/html have been masked (done once the mail is sent). */
    masked: integer("masked", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAt(),
    sentAt: ms("sent_at"),
    /** Files sent with the mail (calendar invites; bounded, dropped once sent). */
    attachments: text("attachments", { mode: "json" }).$type<MailAttachment[]>(),
    /** The appointment a mail is about (its reminder is dropped or moved with it). */
    appointmentId: integer("appointment_id").references(() => appointments.id, {
      onDelete: "cascade",
    }),
    /** When the mail's links die (default: 7 days after createdAt); an unsent mail is wiped then. */
    linksExpireAt: ms("links_expire_at"),
    /** Reply-To of the mail (a message to a lead: the sending admin's address, ADR 273). */
    replyTo: text("reply_to"),
    /** Cc of the mail (a message to a lead with IMAP_URL set: the sending admin, ADR 285). */
    cc: text("cc"),
  },
  (t) => [
    index("mail_outbox_status_idx").on(t.status, t.nextAttemptAt),
    index("mail_outbox_request_idx").on(t.requestId),
    index("mail_outbox_appointment_idx").on(t.appointmentId),
  ],
);

export const idempotencyKeys = sqliteTable("idempotency_keys", {
  /** SHA-256 of scope + key. */
  id: text("id").primaryKey(),
  status: integer("status").notNull(),
  headers: text("headers", { mode: "json" }).$type<Record<string, string>>().notNull(),
  body: text("body").notNull(),
  createdAt: createdAt(),
});

/** Who did what to personal data, when (admin actions, logins, retention runs). No personal data in it. */
export const auditLog = sqliteTable(
  "audit_log",
  {
    id: rowId(),
    at: ms("at").notNull().default(now),
    actorId: integer("actor_id").references(() => admins.id, { onDelete: "set null" }),
    /** Username at the time (kept when the admin is deleted); "System" for jobs. */
    actorName: text("actor_name").notNull(),
    action: text("action").notNull(),
    /** E.g. "Anfrage #0012", "Liste (CSV)". */
    target: text("target").notNull().default(""),
    details: text("details"),
    /**
     * How an admin acted (ADR 319): "session", "token:<id>" (an API token) or "cli" (the command
     * line); null for the system, visitors and failed logins.
     */
    via: text("via"),
  },
  (t) => [
    index("audit_log_at_idx").on(t.at),
    index("audit_log_action_idx").on(t.action, t.at),
    index("audit_log_actor_idx").on(t.actorName, t.at),
  ],
);

/** Last run of each background job (survives restarts: the daily job runs when > 24 h ago). */
export const jobRuns = sqliteTable("job_runs", {
  name: text("name").primaryKey(),
  lastRunAt: ms("last_run_at").notNull(),
  result: text("result", { mode: "json" }),
});

/**
 * Status and stage changes of a request over time (the dashboard's history; ADR 345): one row per
 * move, its status (unchanged for a move between two stages of one status) and its stage.
 */
export const requestStatusHistory = sqliteTable(
  "request_status_history",
  {
    id: rowId(),
    requestId: ownerId("request_id", () => requests.id),
    fromStatus: text("from_status"),
    toStatus: text("to_status").notNull(),
    adminId: integer("admin_id").references(() => admins.id, { onDelete: "set null" }),
    changedAt: ms("changed_at").notNull().default(now),
    /** The stage ids before and after (null in rows from before the pipeline). */
    fromStage: text("from_stage"),
    toStage: text("to_stage"),
    /** The reason of a move to a stage that asks for one ("Verloren"). */
    reason: text("reason"),
    /** What moved it: an admin (admin_id; null when deleted since) or a rule (booking, trial, …). */
    cause: text("cause"),
  },
  (t) => [index("request_status_history_request_idx").on(t.requestId, t.changedAt)],
);

/**
 * Exact request counts per list bucket (ADR 275), kept by triggers (migration 0019) so the list's
 * total, its tabs and the dashboard never count rows: per archived flag, quarantine and status,
 * `bucket` 0 = every request, -1 = requests assigned to anyone, an admin's id = assigned to them.
 */
export const requestCounts = sqliteTable(
  "request_counts",
  {
    archived: integer("archived").notNull(),
    quarantined: integer("quarantined").notNull(),
    status: text("status").notNull(),
    bucket: integer("bucket").notNull(),
    n: integer("n").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.archived, t.quarantined, t.status, t.bucket] })],
);

/**
 * Active requests per pipeline stage (ADR 347), kept by triggers like request_counts: only
 * requests that are neither archived nor held (the board shows no others); `bucket` 0 = all, an
 * admin's id = assigned to them.
 */
export const requestStageCounts = sqliteTable(
  "request_stage_counts",
  {
    stage: text("stage").notNull(),
    bucket: integer("bucket").notNull(),
    n: integer("n").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.stage, t.bucket] })],
);

/**
 * Change counters bumped by triggers (migration 0019): `dashboard` changes whenever a figure of
 * the conversion dashboard may change, so its cache is checked with one primary-key read — any
 * process's write included.
 */
export const changeCounters = sqliteTable("change_counters", {
  name: text("name").primaryKey(),
  n: integer("n").notNull().default(0),
});

/** Rate-limit counters (rate-limiter-flexible's SQLite store): atomic and kept across restarts. */
export const rateLimits = sqliteTable("rate_limits", {
  key: text("key").primaryKey(),
  points: integer("points").notNull().default(0),
  expire: integer("expire"),
});

/**
 * Outgoing webhook deliveries (ADR 140): one row per event and endpoint (unique), sent by the
 * webhook worker with the mail outbox's retry/backoff. The body is fixed at enqueue time, so every
 * retry carries the same bytes, signature and delivery id.
 */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: rowId(),
    /** Random id sent as X-Webhook-Delivery (the same on every attempt: receivers deduplicate). */
    deliveryId: text("delivery_id").notNull().unique(),
    endpointId: text("endpoint_id").notNull(),
    /** The endpoint's URL when queued (shown on the outbox page; the send uses the current one). */
    url: text("url").notNull(),
    event: text("event").notNull(),
    /** What happened, once: e.g. "request.created:12", "request.status_changed:history-7". */
    eventKey: text("event_key").notNull(),
    /** The request whose personal data the body carries: erasing the request removes the delivery. */
    requestId: integer("request_id").references(() => requests.id, { onDelete: "cascade" }),
    body: text("body").notNull(),
    status: text("status", { enum: MAIL_STATUSES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    responseStatus: integer("response_status"),
    nextAttemptAt: ms("next_attempt_at").notNull().default(now),
    createdAt: createdAt(),
    sentAt: ms("sent_at"),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_event_unique").on(t.endpointId, t.eventKey),
    index("webhook_deliveries_status_idx").on(t.status, t.nextAttemptAt),
    index("webhook_deliveries_request_idx").on(t.requestId),
  ],
);

/**
 * Messages to a lead written from their request (ADR 273): the thread kept with the
 * request; the mail itself goes through the outbox (its status is the message's status). Erased
 * with the request.
 */
export const requestMessages = sqliteTable(
  "request_messages",
  {
    id: rowId(),
    requestId: ownerId("request_id", () => requests.id),
    direction: text("direction", { enum: ["out", "in"] })
      .notNull()
      .default("out"),
    subject: text("subject").notNull(),
    body: text("body").notNull(),
    adminId: integer("admin_id").references(() => admins.id, { onDelete: "set null" }),
    /** Username at the time (kept when the admin is deleted). */
    adminName: text("admin_name").notNull(),
    /** The outbox mail; null once the outbox dropped it (sent long ago). */
    mailId: integer("mail_id").references(() => mailOutbox.id, { onDelete: "set null" }),
    sentAt: ms("sent_at").notNull().default(now),
    /**
     * The mail's Message-ID (ADR 285): ours for "out" (a reply's In-Reply-To finds the request),
     * the lead's for "in" (unique: a reply polled twice is stored once).
     */
    messageId: text("message_id"),
    /** "in" only: when an admin opened the request after the reply came (null = "Neue Antwort"). */
    readAt: ms("read_at"),
  },
  (t) => [
    index("request_messages_request_idx").on(t.requestId, t.id),
    uniqueIndex("request_messages_message_id_idx").on(t.messageId),
  ],
);

/**
 * The team calendar's busy times, one row per configured ICS feed (ADR 266): only start and end
 * of each busy interval, never titles or attendees. A feed that fails keeps its last busy times.
 */
export const busyFeedCache = sqliteTable("busy_feed_cache", {
  /** The feed's id in the configuration (teamCalendar.busyFeeds[].id). */
  feedId: text("feed_id").primaryKey(),
  /** [{ start, end }] in epoch ms, sorted by start. */
  busy: text("busy", { mode: "json" }).$type<{ start: number; end: number }[]>().notNull(),
  /** The last successful fetch (null: never fetched yet). */
  fetchedAt: ms("fetched_at"),
  /** The last attempt, successful or not. */
  checkedAt: ms("checked_at"),
  lastError: text("last_error"),
  /** When the background worker fetches the feed next (durable across restarts). */
  nextFetchAt: ms("next_fetch_at").notNull().default(now),
});

/** Tokens of the private feed of booked demos (/admin/kalender.ics?token=…), stored as SHA-256. */
export const calendarFeedTokens = sqliteTable(
  "calendar_feed_tokens",
  {
    id: rowId(),
    tokenHash: text("token_hash").notNull().unique(),
    adminId: ownerId("admin_id", () => admins.id),
    createdAt: createdAt(),
    lastUsedAt: ms("last_used_at"),
  },
  (t) => [index("calendar_feed_tokens_admin_idx").on(t.adminId)],
);

/**
 * An admin's CalDAV account (ADRs 335–338): where discovery found the calendars, the login (the
 * app password sealed like the other secrets), which calendars count as busy and which one gets
 * the demos; the connection's health (shown on the dashboard and in Account-Einstellungen) and
 * the state of the job that brings calendar edits back (sync token, next run: durable).
 */
export type CaldavCalendarInfo = {
  url: string;
  name: string;
  /** Components the calendar holds (VEVENT, VTODO …); empty = not announced (all). */
  components: string[];
  freeBusyQuery: boolean;
  syncCollection: boolean;
};
export const calendarConnections = sqliteTable("calendar_connections", {
  id: rowId(),
  adminId: integer("admin_id")
    .notNull()
    .unique()
    .references(() => admins.id, { onDelete: "cascade" }),
  /** The address the admin typed (shown back); discovery's results below. */
  serverUrl: text("server_url").notNull(),
  principalUrl: text("principal_url"),
  homeUrl: text("home_url"),
  username: text("username").notNull(),
  /** The app password, sealed (AES-256-GCM under SESSION_SECRET); never shown again. */
  password: text("password").notNull(),
  calendars: text("calendars", { mode: "json" }).$type<CaldavCalendarInfo[]>().notNull(),
  /** URLs of the calendars whose events block slots. */
  busyCalendars: text("busy_calendars", { mode: "json" }).$type<string[]>().notNull(),
  /** The calendar demos are written into (null: none). */
  writeCalendar: text("write_calendar"),
  /** This admin takes demos (when the admins who take demos are the hosts, ADR 338). */
  takesDemos: integer("takes_demos", { mode: "boolean" }).notNull().default(false),
  /** The last failure in plain German, and its kind ("auth", "unreachable", "garbage"). */
  lastError: text("last_error"),
  errorKind: text("error_kind"),
  checkedAt: ms("checked_at"),
  lastOkAt: ms("last_ok_at"),
  /** RFC 6578 sync token of the demo calendar ("" = full listing next time). */
  syncToken: text("sync_token"),
  /** When the sync job looks at the demo calendar next. */
  nextSyncAt: ms("next_sync_at").notNull().default(now),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * The last known busy times of a connection's busy calendars for one Berlin day (the day with its
 * neighbours, for buffers): only start and end, never titles (ADR 337). Kept when the server is down.
 */
export const calendarBusy = sqliteTable(
  "calendar_busy",
  {
    connectionId: ownerId("connection_id", () => calendarConnections.id),
    day: text("day").notNull(),
    busy: text("busy", { mode: "json" }).$type<{ start: number; end: number }[]>().notNull(),
    fetchedAt: ms("fetched_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.connectionId, t.day] })],
);

/**
 * A demo event in an admin's calendar (ADR 336): an outbox row that brings the calendar to the
 * wanted state (`present` or not) with retries, and afterwards the record of what was written
 * (href, ETag, SEQUENCE, times) that the sync compares edits made in the calendar against. The
 * appointment's deletion (erasure, retention) marks it absent by trigger (migration).
 */
export const calendarEvents = sqliteTable(
  "calendar_events",
  {
    id: rowId(),
    /** No foreign key: the event outlives the row until it is deleted in the calendar. */
    appointmentId: integer("appointment_id"),
    connectionId: ownerId("connection_id", () => calendarConnections.id),
    calendarUrl: text("calendar_url").notNull(),
    uid: text("uid").notNull(),
    /** The resource's URL once written, and its last known ETag. */
    href: text("href"),
    etag: text("etag"),
    present: integer("present", { mode: "boolean" }).notNull().default(true),
    /** The times last written (the sync's reference); null before the first write. */
    startTime: ms("start_time"),
    endTime: ms("end_time"),
    /** SEQUENCE of the last write (raised with every move). */
    sequence: integer("sequence").notNull().default(0),
    status: text("status", { enum: MAIL_STATUSES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: ms("next_attempt_at").notNull().default(now),
    lastError: text("last_error"),
    /** An edit made in the calendar: "moved" (to changedStart–changedEnd) or "deleted". */
    calendarChange: text("calendar_change", { enum: ["moved", "deleted"] }),
    changedStart: ms("changed_start"),
    changedEnd: ms("changed_end"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("calendar_events_uid_unique").on(t.connectionId, t.calendarUrl, t.uid),
    index("calendar_events_appointment_idx").on(t.appointmentId),
    index("calendar_events_due_idx").on(t.status, t.nextAttemptAt),
  ],
);

/**
 * Internal notes on a request (ADR 350): plain text by admins for admins; the author may edit or
 * delete within 15 minutes. Erased with the request; never in webhooks, CSV or public answers.
 */
export const requestNotes = sqliteTable(
  "request_notes",
  {
    id: rowId(),
    requestId: ownerId("request_id", () => requests.id),
    adminId: integer("admin_id").references(() => admins.id, { onDelete: "set null" }),
    /** Username at the time (kept when the admin is deleted). */
    adminName: text("admin_name").notNull(),
    body: text("body").notNull(),
    /** JSON list of the mentioned usernames (each an active admin when written). */
    mentions: text("mentions", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    createdAt: createdAt(),
    editedAt: ms("edited_at"),
  },
  (t) => [index("request_notes_request_idx").on(t.requestId, t.id)],
);

/**
 * Follow-ups ("Wiedervorlage", ADR 351): at most one open per request (done_at null), owned by
 * the admin who set it; a lead's reply or booking marks the open one (`answer`). Finished rows
 * stay as the request's history until it is erased.
 */
export const followUps = sqliteTable(
  "follow_ups",
  {
    id: rowId(),
    requestId: ownerId("request_id", () => requests.id),
    /** Whose task it is; an admin's deletion hands it to the deleting admin. */
    adminId: ownerId("admin_id", () => admins.id),
    /** The Berlin day it is due (YYYY-MM-DD). */
    dueDay: text("due_day").notNull(),
    text: text("text").notNull().default(""),
    createdAt: createdAt(),
    doneAt: ms("done_at"),
    doneBy: integer("done_by").references(() => admins.id, { onDelete: "set null" }),
    answer: text("answer", { enum: ["reply", "booking"] }),
    answeredAt: ms("answered_at"),
  },
  (t) => [
    // One open follow-up per request: a second "setzen" moves it (and the parallel guard).
    uniqueIndex("follow_ups_open_request_unique").on(t.requestId).where(sql`${t.doneAt} IS NULL`),
    // The tasks page and the digest: an admin's open ones by day, never the finished history.
    index("follow_ups_open_admin_idx").on(t.adminId, t.dueDay).where(sql`${t.doneAt} IS NULL`),
    index("follow_ups_request_idx").on(t.requestId),
  ],
);

/**
 * The morning digest's durable job (ADR 352): one row per admin and Berlin day, written in the
 * same transaction that queues the mail (or finds nothing to say), so a restart or a crash
 * mid-run sends each admin at most one digest a day and the rest after the restart.
 */
export const digestRuns = sqliteTable(
  "digest_runs",
  {
    adminId: ownerId("admin_id", () => admins.id),
    day: text("day").notNull(),
    /** "queued" (a mail in the outbox) or "empty" (nothing due that morning: no mail). */
    outcome: text("outcome", { enum: ["queued", "empty"] }).notNull(),
    mailId: integer("mail_id").references(() => mailOutbox.id, { onDelete: "set null" }),
    at: ms("at").notNull().default(now),
  },
  (t) => [primaryKey({ columns: [t.adminId, t.day] })],
);

/**
 * Fair assignment's pointer (ADR 353): the admin who got the last released request. One row
 * (`id` 1), read and moved in the transaction that assigns, so parallel submissions take turns.
 */
export const assignmentRotation = sqliteTable("assignment_rotation", {
  id: integer("id").primaryKey(),
  lastAdminId: integer("last_admin_id"),
  assigned: integer("assigned").notNull().default(0),
});

/**
 * Feedback from the accessibility statement's page (/barrierefreiheit, BFSG §14; ADR 340): what a
 * visitor reports, optionally with a name and an address to answer (never mailed by the app).
 * Erased by an admin or after `accessibility.feedbackDays`. `held`: sent without a valid proof of
 * work or blocklisted (ADR 250) — shown as unchecked, never dropped.
 */
export const accessibilityFeedback = sqliteTable(
  "accessibility_feedback",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    createdAt: ms("created_at").notNull().default(now),
    message: text("message").notNull(),
    /** Where the barrier was ("Seite oder Stelle"), as typed. */
    location: text("location"),
    name: text("name"),
    email: text("email"),
    held: integer("held", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [index("accessibility_feedback_created_idx").on(t.createdAt)],
);
