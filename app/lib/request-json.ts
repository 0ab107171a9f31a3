import type { Attribution } from "./attribution";
import type { FollowUpJson } from "./follow-ups";
import type { PromiseJson } from "./promises";
import type { RequestMessageJson } from "./request-message";
import type { NoteJson } from "./request-notes";
import type { RequestStatus } from "./request-status";
import type { TranscriptStatus } from "./transcript-status";

/** The spec's Request JSON shape (§3). `audioPath` is the key for `GET /api/audio/{audioPath}`. */
export type RequestJson = {
  id: number;
  name: string;
  email: string;
  phone: string;
  companyDescription: string;
  description: string;
  summary: string | null;
  status: RequestStatus;
  createdAt: string;
  updatedAt: string;
  archived: boolean;
  audioPath: string | null;
  attachments: AttachmentJson[];
  preparationData: Record<string, string>;
  assigned_to: number[];
  affiliateCode: string | null;
  /** utm_source/medium/campaign, external referrer and landing path of the visit (ADR 145). */
  attribution: Attribution;
  /** The pipeline stage (ADR 345): its stable id and its configured name. */
  stage: { id: string; name: string };
  /** The reason given when it was moved to a stage that asks for one ("Verloren"); else null. */
  lostReason: string | null;
  /** The first contact and the trial version: due and done times (ADR 346; null: none/not yet). */
  promises: RequestPromises;
  /** The link of the delivered trial version; null until delivered. */
  trialUrl: string | null;
};

/** The two promises of a request (ADR 346). */
export type RequestPromises = { contact: PromiseJson; trial: PromiseJson };

/**
 * The admin API's request JSON: the spec's shape plus the spam quarantine state (ADR 252), the
 * voice transcript and the messages to the lead (ADRs 272, 273). Never in the public
 * 201 body, the visitor's pages, webhooks or CSV.
 */
export type AdminRequestJson = RequestJson & {
  quarantined: boolean;
  /** The transcript of the voice recording; null until transcribed. */
  voiceTranscript: string | null;
  /** pending | done | failed | off; null without a recording. */
  voiceTranscriptStatus: TranscriptStatus | null;
  /** The thread with the lead, oldest first. */
  messages: RequestMessageJson[];
  /**
   * Internal notes, oldest first (ADR 350): for a session, or an API token with `notes:read`;
   * absent otherwise.
   */
  notes?: NoteJson[];
  /**
   * The open follow-up or null (ADR 351): for a session, or an API token with `followups:read`;
   * absent otherwise.
   */
  followUp?: FollowUpJson | null;
};

export type AttachmentJson = {
  id: number;
  filename: string;
  originalName: string;
  size: number;
  uploadedAt: string;
};

/**
 * What a row of the admin request list shows without being expanded (the HTML page's loader data;
 * the detail tabs load the full `RequestJson` on demand).
 */
export type RequestListItem = {
  id: number;
  name: string;
  /** Summary, else the description, cut for the row (`summaryPreview`). */
  preview: string;
  status: RequestStatus;
  createdAt: string;
  archived: boolean;
  /** Number of attachments. */
  files: number;
  hasAudio: boolean;
  assigned_to: number[];
  /** The first line of the company description, cut for the row. */
  company: string;
  /** utm_source, else the external referrer's host; null when neither is known. */
  source: string | null;
  /** The affiliate code with its partner and discount (null when the code was deleted since). */
  code: { code: string; partner: string | null; discount: number | null } | null;
  /** The stage id (the page names it from the configuration; an unknown one by its status). */
  stage: string;
  /** Due and done times of the first contact and the trial version (ADR 346). */
  promises: RequestPromises;
};
