import { type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { useFetcher, useFetchers, useLocation } from "react-router";
import { Button } from "~/components/ui/button";
import { Modal } from "~/components/ui/modal";
import { formatRequestId } from "~/lib/format";
import type { Stage } from "~/lib/pipeline";
import { ReasonSelect } from "./reason-select";

/**
 * Moving cards on the board with JavaScript (ADR 347): drag and drop (HTML5, mouse), and the
 * keyboard on each card's handle — Space or Enter picks the card up, ←/→ choose the column, Space
 * or Enter puts it down, Escape cancels; every step is announced in a live region. A move posts
 * the page's "stage" intent through a fetcher (the same rule as the select on the card and the
 * API); a stage that asks for a reason opens a dialog first. While the post runs the card is
 * shown in its new column; afterwards its handle has the focus again.
 */

export type Lifted = { id: number; from: number; target: number };
type PendingReason = { id: number; stage: Stage };

export function useBoardMoves(stages: Stage[], name: (id: number) => string) {
  const fetcher = useFetcher();
  const location = useLocation();
  const [lifted, setLifted] = useState<Lifted | null>(null);
  const [dragging, setDragging] = useState<number | null>(null);
  // The dragged card, known at once: the first dragover can come before React renders the
  // state set by dragstart (a quick drag), and a stale `null` there would refuse the drop.
  const draggingNow = useRef<number | null>(null);
  const [over, setOver] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState("");
  const [askReason, setAskReason] = useState<PendingReason | null>(null);
  // The move being saved: `running` once the fetcher has left "idle" (a render right after the
  // submit may still see it idle).
  const focusAfter = useRef<{ id: number; running: boolean } | null>(null);
  const say = (text: string) => setAnnouncement(text);
  const label = (id: number) => `Anfrage #${formatRequestId(id)} (${name(id)})`;

  function move(id: number, stage: Stage, reason?: string) {
    if (stage.askReason && !reason) {
      setAskReason({ id, stage });
      return;
    }
    focusAfter.current = { id, running: false };
    const form: Record<string, string> = { intent: "stage", id: String(id), stage: stage.id };
    if (reason) form.reason = reason;
    fetcher.submit(form, { method: "post", action: `${location.pathname}${location.search}` });
    say(`${label(id)} wird nach „${stage.name}“ verschoben …`);
  }

  // After the move (the page has its new data): the card's handle in its new column.
  useEffect(() => {
    const after = focusAfter.current;
    if (!after) return;
    if (fetcher.state !== "idle") {
      after.running = true;
      return;
    }
    if (!after.running) return;
    const { id } = after;
    focusAfter.current = null;
    document.querySelector<HTMLElement>(`[data-card="${id}"] [data-drag-handle]`)?.focus();
    // The page's toast announces the result (moved, or why not): said once, not twice.
    say("");
  });

  // A move from a card's own "Phase ändern" select (or its reason step): the card is drawn anew in
  // its new column and the focus it had falls to the page. Once the move is saved, and when nothing
  // else took the focus meanwhile, the card's handle takes it and the card comes into view.
  const fetchers = useFetchers();
  const cardMoves = useRef(new Set<number>());
  useEffect(() => {
    const running = new Set<number>();
    for (const f of fetchers) {
      if (f.state !== "idle" && f.formData?.get("intent") === "stage")
        running.add(Number(f.formData.get("id")));
    }
    for (const id of cardMoves.current) {
      if (running.has(id)) continue;
      const active = document.activeElement;
      if (active && active !== document.body) continue;
      const moved = document.querySelector<HTMLElement>(`[data-card="${id}"]`);
      moved?.scrollIntoView({ block: "nearest", inline: "nearest" });
      moved?.querySelector<HTMLElement>("[data-drag-handle]")?.focus({ preventScroll: true });
    }
    cardMoves.current = running;
  });

  /** The pending move, for the optimistic board: the card and its new column. */
  const pending =
    fetcher.state !== "idle" && fetcher.formData?.get("intent") === "stage"
      ? { id: Number(fetcher.formData.get("id")), stage: String(fetcher.formData.get("stage")) }
      : null;

  function onHandleKeyDown(event: KeyboardEvent<HTMLElement>, id: number, column: number) {
    const key = event.key;
    if (!lifted || lifted.id !== id) {
      if (key === " " || key === "Enter") {
        event.preventDefault();
        setLifted({ id, from: column, target: column });
        say(
          `${label(id)} aufgenommen, in „${stages[column].name}“. Pfeiltaste links oder rechts wählt die Phase, Leertaste legt die Karte ab, Escape bricht ab.`,
        );
      }
      return;
    }
    if (key === "ArrowRight" || key === "ArrowLeft") {
      event.preventDefault();
      const target = Math.max(
        0,
        Math.min(stages.length - 1, lifted.target + (key === "ArrowRight" ? 1 : -1)),
      );
      setLifted({ ...lifted, target });
      document
        .getElementById(`phase-${stages[target].id}`)
        ?.scrollIntoView({ block: "nearest", inline: "nearest" });
      say(`„${stages[target].name}“ (Phase ${target + 1} von ${stages.length}).`);
    } else if (key === " " || key === "Enter") {
      event.preventDefault();
      setLifted(null);
      if (lifted.target === lifted.from) say(`${label(id)} abgelegt, Phase unverändert.`);
      else move(id, stages[lifted.target]);
    } else if (key === "Escape") {
      event.preventDefault();
      setLifted(null);
      say(`Verschieben abgebrochen. ${label(id)} bleibt in „${stages[lifted.from].name}“.`);
    } else if (key === "Tab") {
      setLifted(null);
    }
  }

  const dragProps = (id: number) => ({
    draggable: true,
    onDragStart: (event: React.DragEvent) => {
      event.dataTransfer.setData("text/plain", String(id));
      event.dataTransfer.effectAllowed = "move";
      draggingNow.current = id;
      setDragging(id);
    },
    onDragEnd: () => {
      draggingNow.current = null;
      setDragging(null);
      setOver(null);
    },
  });

  const dropProps = (stage: Stage) => ({
    onDragOver: (event: React.DragEvent) => {
      if (draggingNow.current === null) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = "move";
      if (over !== stage.id) setOver(stage.id);
    },
    onDragLeave: (event: React.DragEvent) => {
      if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOver(null);
    },
    onDrop: (event: React.DragEvent) => {
      event.preventDefault();
      const id = Number(event.dataTransfer.getData("text/plain")) || draggingNow.current;
      draggingNow.current = null;
      setDragging(null);
      setOver(null);
      if (id) move(id, stage);
    },
  });

  const reasonDialog = (reasons: string[]) => (
    <ReasonDialog
      pending={askReason}
      reasons={reasons}
      onClose={() => {
        const id = askReason?.id;
        setAskReason(null);
        if (id) {
          say(`Verschieben abgebrochen. ${label(id)} bleibt in seiner Phase.`);
          requestAnimationFrame(() =>
            document.querySelector<HTMLElement>(`[data-card="${id}"] [data-drag-handle]`)?.focus(),
          );
        }
      }}
      onMove={(reason) => {
        if (!askReason) return;
        const { id, stage } = askReason;
        setAskReason(null);
        move(id, stage, reason);
      }}
    />
  );

  return {
    lifted,
    dragging,
    over,
    pending,
    announcement,
    onHandleKeyDown,
    dragProps,
    dropProps,
    reasonDialog,
  };
}

/** "Grund für „Verloren“" after a drag or keyboard move to a stage that asks for one. */
function ReasonDialog({
  pending,
  reasons,
  onClose,
  onMove,
}: {
  pending: PendingReason | null;
  reasons: string[];
  onClose: () => void;
  onMove: (reason: string) => void;
}) {
  const uid = useId();
  const select = useRef<HTMLSelectElement>(null);
  return (
    <Modal
      open={pending !== null}
      onClose={onClose}
      title={pending ? `Grund für „${pending.stage.name}“` : ""}
      initialFocusRef={select}
      size="sm"
    >
      <form
        className="space-y-3"
        onSubmit={(event) => {
          event.preventDefault();
          const reason = select.current?.value;
          if (reason) onMove(reason);
        }}
      >
        <label htmlFor={`${uid}-reason`} className="block text-sm font-medium">
          Warum ist Anfrage #{pending ? formatRequestId(pending.id) : ""} verloren?
        </label>
        <ReasonSelect ref={select} id={`${uid}-reason`} reasons={reasons} />
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose}>
            Abbrechen
          </Button>
          <Button type="submit">Verschieben</Button>
        </div>
      </form>
    </Modal>
  );
}
