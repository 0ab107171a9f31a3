import { z } from "zod";
import { DEFAULT_PROMISES, PromiseSettingsSchema } from "./promises";
import { REQUEST_STATUSES, type RequestStatus } from "./request-status";

/**
 * The pipeline (ADR 345): a configurable list of stages, each mapped to one of the spec's
 * statuses. A request is in exactly one stage; its status is the stage's. Stages are named by a
 * stable id, so renaming one keeps its requests; the order is the board's columns and the
 * direction automatic moves may go ("never backwards").
 */

export const MAX_STAGES = 20;
export const STAGE_NAME_MAX = 40;
export const MAX_LOST_REASONS = 20;
export const LOST_REASON_MAX = 80;

export type Stage = { id: string; name: string; status: RequestStatus; askReason: boolean };

/** The stages the automatic moves look for (renamed or not; a removed one is simply skipped). */
export const STAGE_IDS = {
  entry: "new",
  demo: "demo",
  trial: "trial",
} as const;

export const DEFAULT_STAGES: Stage[] = [
  { id: "new", name: "Neu", status: "New", askReason: false },
  { id: "contacted", name: "Kontaktiert", status: "In Progress", askReason: false },
  { id: "demo", name: "Demo gebucht", status: "In Progress", askReason: false },
  { id: "trial", name: "Testversion geliefert", status: "In Progress", askReason: false },
  { id: "offer", name: "Angebot", status: "In Progress", askReason: false },
  { id: "won", name: "Gewonnen", status: "Done", askReason: false },
  { id: "lost", name: "Verloren", status: "Done", askReason: true },
];

export const DEFAULT_LOST_REASONS = [
  "Kein Budget",
  "Kein Bedarf mehr",
  "Anderer Anbieter gewählt",
  "Keine Rückmeldung",
  "Passt nicht zu unserem Angebot",
];

export const PIPELINE_MESSAGES = {
  nameRequired: "Bitte geben Sie einen Namen für die Phase ein.",
  nameTooLong: `Der Name einer Phase darf höchstens ${STAGE_NAME_MAX} Zeichen lang sein.`,
  nameDuplicate: "Eine Phase mit diesem Namen gibt es bereits.",
  tooMany: `Höchstens ${MAX_STAGES} Phasen.`,
  idInvalid: "Ungültige Phasen-ID (Kleinbuchstaben, Ziffern und -).",
  idDuplicate: "Jede Phasen-ID darf nur einmal vorkommen.",
  statusUnknown: "Unbekannter Status. Erlaubt: New, In Progress, Done.",
  statusMissing: (labels: string[]) =>
    `Für jeden Status braucht es mindestens eine Phase (es fehlt: ${labels.join(", ")}).`,
  reasonRequired: "Bitte geben Sie einen Grund ein.",
  reasonTooLong: `Ein Grund darf höchstens ${LOST_REASON_MAX} Zeichen lang sein.`,
  reasonDuplicate: "Diesen Grund gibt es bereits.",
  reasonsTooMany: `Höchstens ${MAX_LOST_REASONS} Gründe.`,
  reasonsMissing:
    "Bitte geben Sie mindestens einen Grund an, solange eine Phase nach dem Grund fragt.",
  stageUnknown: "Unbekannte Phase.",
  reasonMissing: (stage: string) => `Bitte wählen Sie einen Grund für „${stage}“.`,
  reasonUnknown: "Bitte wählen Sie einen der Gründe aus der Liste.",
} as const;

/** Status labels of the pipeline's messages (the spec's statuses in German). */
const STATUS_WORDS: Record<RequestStatus, string> = {
  New: "Neu",
  "In Progress": "In Bearbeitung",
  Done: "Erledigt",
};

const UMLAUTS: Record<string, string> = { ä: "ae", ö: "oe", ü: "ue", ß: "ss" };

/** A stage id from its name: "Demo gebucht" → "demo-gebucht" (then made unique by the list). */
export function stageIdFrom(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[äöüß]/g, (c) => UMLAUTS[c] ?? c)
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 32)
    .replace(/-+$/, "");
  return slug || "phase";
}

const stageName = z
  .string({ error: PIPELINE_MESSAGES.nameRequired })
  .trim()
  .min(1, PIPELINE_MESSAGES.nameRequired)
  .max(STAGE_NAME_MAX, PIPELINE_MESSAGES.nameTooLong);

/** A stage as the configuration API and the settings form send it: a new one may lack its id. */
export const StageInputSchema = z.object({
  id: z
    .string()
    .trim()
    .optional()
    .transform((v) => v || undefined)
    .pipe(
      z
        .string()
        .regex(/^[a-z0-9][a-z0-9-]{0,39}$/, PIPELINE_MESSAGES.idInvalid)
        .optional(),
    ),
  name: stageName,
  status: z.enum(REQUEST_STATUSES, { error: PIPELINE_MESSAGES.statusUnknown }),
  askReason: z.boolean().default(false),
});

/**
 * The stage list: 1–20 stages, names unique (case-insensitive), at least one stage per status;
 * a stage without an id gets one from its name, unique in the list.
 */
export const StageListSchema = z
  .array(StageInputSchema, { error: PIPELINE_MESSAGES.tooMany })
  .max(MAX_STAGES, PIPELINE_MESSAGES.tooMany)
  .superRefine((stages, ctx) => {
    const names = new Map<string, number>();
    const ids = new Set<string>();
    stages.forEach((stage, index) => {
      const key = stage.name.toLocaleLowerCase("de");
      if (names.has(key))
        ctx.addIssue({
          code: "custom",
          path: [index, "name"],
          message: PIPELINE_MESSAGES.nameDuplicate,
        });
      names.set(key, index);
      if (stage.id && ids.has(stage.id))
        ctx.addIssue({
          code: "custom",
          path: [index, "id"],
          message: PIPELINE_MESSAGES.idDuplicate,
        });
      if (stage.id) ids.add(stage.id);
    });
    const missing = REQUEST_STATUSES.filter((s) => !stages.some((stage) => stage.status === s));
    if (missing.length)
      ctx.addIssue({
        code: "custom",
        message: PIPELINE_MESSAGES.statusMissing(missing.map((s) => STATUS_WORDS[s])),
      });
  })
  .transform((stages): Stage[] => {
    const taken = new Set(stages.flatMap((s) => (s.id ? [s.id] : [])));
    return stages.map((stage) => {
      let id = stage.id;
      if (!id) {
        const base = stageIdFrom(stage.name);
        id = base;
        for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
        taken.add(id);
      }
      return { id, name: stage.name, status: stage.status, askReason: stage.askReason };
    });
  });

/** The reasons "Verloren" (any stage that asks) offers: 0–20 unique lines. */
export const LostReasonListSchema = z
  .array(
    z
      .string({ error: PIPELINE_MESSAGES.reasonRequired })
      .trim()
      .min(1, PIPELINE_MESSAGES.reasonRequired)
      .max(LOST_REASON_MAX, PIPELINE_MESSAGES.reasonTooLong),
  )
  .max(MAX_LOST_REASONS, PIPELINE_MESSAGES.reasonsTooMany)
  .superRefine((list, ctx) => {
    list.forEach((reason, index) => {
      const key = reason.toLocaleLowerCase("de");
      if (list.findIndex((r) => r.toLocaleLowerCase("de") === key) < index)
        ctx.addIssue({ code: "custom", path: [index], message: PIPELINE_MESSAGES.reasonDuplicate });
    });
  });

/** A stage that asks for a reason ("Verloren") needs at least one reason to offer (the API and the page). */
export function reasonsWhereAsked(
  p: { stages: { askReason?: boolean }[]; lostReasons: string[] },
  ctx: z.RefinementCtx,
) {
  if (p.stages.some((s) => s.askReason) && p.lostReasons.length === 0)
    ctx.addIssue({
      code: "custom",
      path: ["lostReasons"],
      message: PIPELINE_MESSAGES.reasonsMissing,
    });
}

/** `pipeline` of the configuration: the stages, the reasons, the two promises. */
export const PipelineSchema = z
  .object({
    stages: StageListSchema.default(DEFAULT_STAGES),
    lostReasons: LostReasonListSchema.default(DEFAULT_LOST_REASONS),
    promises: PromiseSettingsSchema,
  })
  .superRefine(reasonsWhereAsked)
  .prefault({} as never);
export type Pipeline = z.infer<typeof PipelineSchema>;

export const DEFAULT_PIPELINE: Pipeline = {
  stages: DEFAULT_STAGES,
  lostReasons: DEFAULT_LOST_REASONS,
  promises: DEFAULT_PROMISES,
};

export const stageById = (p: Pick<Pipeline, "stages">, id: string) =>
  p.stages.find((s) => s.id === id);

/** The first stage of a status (where the dropdown and the API's status put a request). */
export function firstStageOf(p: Pick<Pipeline, "stages">, status: RequestStatus): Stage {
  // The schema guarantees one per status; a hand-made document falls back to the first stage.
  return p.stages.find((s) => s.status === status) ?? p.stages[0] ?? DEFAULT_STAGES[0];
}

/** Where a new request lands: the first stage of "New". */
export const entryStage = (p: Pick<Pipeline, "stages">) => firstStageOf(p, "New");

/**
 * The stage a request shows: its own, or — when its stage is no longer configured (a restored
 * database) — the first stage of its status.
 */
export function resolveStage(
  p: Pick<Pipeline, "stages">,
  id: string,
  status: RequestStatus,
): Stage {
  return stageById(p, id) ?? firstStageOf(p, status);
}

/**
 * The stage a status change moves a request to (ADR 345): it stays where it is when its stage
 * already maps to the status, else it goes to the status's first stage.
 */
export function stageForStatus(
  p: Pick<Pipeline, "stages">,
  currentId: string,
  status: RequestStatus,
): Stage {
  const current = stageById(p, currentId);
  return current?.status === status ? current : firstStageOf(p, status);
}

/**
 * Whether an automatic move (a booking, a delivered trial) may take a request from `from` to
 * `to`: only forward in the list, and never out of a stage of "Done" (Gewonnen, Verloren).
 */
export function mayMoveAutomatically(
  p: Pick<Pipeline, "stages">,
  fromId: string,
  status: RequestStatus,
  toId: string,
): boolean {
  const from = resolveStage(p, fromId, status);
  const fromIndex = p.stages.indexOf(from);
  const toIndex = p.stages.findIndex((s) => s.id === toId);
  return toIndex >= 0 && from.status !== "Done" && toIndex > fromIndex;
}

/** The stage before `id` in the list (a cancelled booking's way back from "Demo gebucht"). */
export function stageBefore(p: Pick<Pipeline, "stages">, id: string): Stage | undefined {
  const index = p.stages.findIndex((s) => s.id === id);
  return index > 0 ? p.stages[index - 1] : undefined;
}

/** The stages of each status, for the status labels of the settings and the board. */
export const STAGE_STATUS_LABELS = STATUS_WORDS;
