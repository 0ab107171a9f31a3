import { describe, expect, it } from "vitest";
import {
  DEFAULT_STAGES,
  entryStage,
  mayMoveAutomatically,
  PIPELINE_MESSAGES,
  PipelineSchema,
  resolveStage,
  stageBefore,
  stageForStatus,
  stageIdFrom,
} from "./pipeline";

const p = { stages: DEFAULT_STAGES };
const issues = (input: unknown) => {
  const result = PipelineSchema.safeParse(input);
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
};

describe("PipelineSchema", () => {
  it("defaults to the seven stages, five reasons and the landing page's promises", () => {
    const pipeline = PipelineSchema.parse(undefined);
    expect(pipeline.stages.map((s) => `${s.name} (${s.status})`)).toEqual([
      "Neu (New)",
      "Kontaktiert (In Progress)",
      "Demo gebucht (In Progress)",
      "Testversion geliefert (In Progress)",
      "Angebot (In Progress)",
      "Gewonnen (Done)",
      "Verloren (Done)",
    ]);
    expect(pipeline.stages.filter((s) => s.askReason).map((s) => s.name)).toEqual(["Verloren"]);
    expect(pipeline.promises).toEqual({ contactDays: 1, trialDays: 3, trialWorkingDays: false });
  });

  it("gives a new stage an id from its name, unique in the list; stored ids stay", () => {
    const pipeline = PipelineSchema.parse({
      stages: [
        ...DEFAULT_STAGES.map((s) => (s.id === "contacted" ? { ...s, name: "Angerufen" } : s)),
        { name: "Rückruf vereinbart", status: "In Progress" },
        { name: "Demo", status: "In Progress" },
      ],
    });
    expect(pipeline.stages.find((s) => s.name === "Angerufen")?.id).toBe("contacted");
    expect(pipeline.stages.at(-2)?.id).toBe("rueckruf-vereinbart");
    // "demo" is taken by "Demo gebucht".
    expect(pipeline.stages.at(-1)?.id).toBe("demo-2");
    expect(stageIdFrom("  !!  ")).toBe("phase");
  });

  it("refuses a list without a stage for each status, duplicate names, more than 20 stages", () => {
    expect(issues({ stages: DEFAULT_STAGES.filter((s) => s.status !== "Done") })).toEqual([
      `stages: ${PIPELINE_MESSAGES.statusMissing(["Erledigt"])}`,
    ]);
    expect(
      issues({ stages: [...DEFAULT_STAGES, { name: "  gewonnen ", status: "Done" }] }),
    ).toEqual([`stages.7.name: ${PIPELINE_MESSAGES.nameDuplicate}`]);
    const many = Array.from({ length: 21 }, (_, i) => ({
      name: `Phase ${i}`,
      status: (["New", "In Progress", "Done"] as const)[i % 3],
    }));
    expect(issues({ stages: many })).toEqual([`stages: ${PIPELINE_MESSAGES.tooMany}`]);
    expect(issues({ stages: [{ name: "", status: "New" }] })[0]).toBe(
      `stages.0.name: ${PIPELINE_MESSAGES.nameRequired}`,
    );
    expect(issues({ stages: [{ name: "X", status: "Open" }] })[0]).toBe(
      `stages.0.status: ${PIPELINE_MESSAGES.statusUnknown}`,
    );
  });

  it("needs a reason list while a stage asks for one", () => {
    expect(issues({ lostReasons: [] })).toEqual([
      `lostReasons: ${PIPELINE_MESSAGES.reasonsMissing}`,
    ]);
    expect(issues({ lostReasons: ["Kein Budget", "kein budget"] })).toEqual([
      `lostReasons.1: ${PIPELINE_MESSAGES.reasonDuplicate}`,
    ]);
  });
});

describe("stage rules", () => {
  it("a status moves to its first stage unless the current stage already maps to it", () => {
    expect(stageForStatus(p, "new", "In Progress").id).toBe("contacted");
    expect(stageForStatus(p, "offer", "In Progress").id).toBe("offer");
    expect(stageForStatus(p, "offer", "Done").id).toBe("won");
    expect(stageForStatus(p, "lost", "Done").id).toBe("lost");
    expect(stageForStatus(p, "won", "New").id).toBe("new");
  });

  it("a stage no longer configured shows as the first stage of its status", () => {
    expect(resolveStage(p, "gone", "In Progress").id).toBe("contacted");
    expect(entryStage(p).id).toBe("new");
  });

  it("automatic moves go forward only, never out of Gewonnen or Verloren", () => {
    expect(mayMoveAutomatically(p, "new", "New", "demo")).toBe(true);
    expect(mayMoveAutomatically(p, "demo", "In Progress", "trial")).toBe(true);
    expect(mayMoveAutomatically(p, "offer", "In Progress", "trial")).toBe(false);
    expect(mayMoveAutomatically(p, "trial", "In Progress", "trial")).toBe(false);
    expect(mayMoveAutomatically(p, "won", "Done", "trial")).toBe(false);
    expect(mayMoveAutomatically(p, "new", "New", "removed")).toBe(false);
    expect(stageBefore(p, "demo")?.id).toBe("contacted");
    expect(stageBefore(p, "new")).toBeUndefined();
  });
});
