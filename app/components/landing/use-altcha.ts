import { useRef, useState } from "react";
import { ALTCHA_STATUS, altchaPayloadStale } from "~/lib/altcha";
import type { AltchaHandle } from "./altcha-widget.client";

type Phase = "idle" | "verifying" | "verified" | "failed";

/**
 * The contact form's proof of work (ADR 250): the widget is loaded and starts solving on the first
 * interaction with the form; a submission waits for the solution (`solution()`), and one that was
 * used (an accepted submission) or is about to expire is replaced by a fresh one. When solving
 * fails twice (no secure context, the challenge could not be fetched), the submission goes without
 * and waits for a human in the quarantine — a visitor is never stuck. `texts`: the status lines
 * (the contact form's by default; the accessibility feedback says "Rückmeldung").
 */
export function useAltcha(
  texts: Record<Exclude<Phase, "idle"> | "waiting", string> = ALTCHA_STATUS,
) {
  const containerRef = useRef<HTMLDivElement>(null);
  const [phase, setPhase] = useState<Phase>("idle");
  const [waiting, setWaiting] = useState(false);
  const widget = useRef<Promise<AltchaHandle> | null>(null);
  const current = useRef<Promise<string | null> | null>(null);

  const solveNew = () => {
    setPhase("verifying");
    const run = (async () => {
      const container = containerRef.current;
      if (!container) return null;
      widget.current ??= import("./altcha-widget.client").then((m) => m.mountAltcha(container));
      const handle = await widget.current;
      return (await handle.solve()) ?? (await handle.solve());
    })()
      .catch(() => null)
      .then((payload) => {
        if (current.current === run) setPhase(payload ? "verified" : "failed");
        return payload;
      });
    current.current = run;
    return run;
  };

  return {
    containerRef,
    /** The first interaction with the form: start solving in the background (once). */
    start() {
      if (!current.current) void solveNew();
    },
    /** The payload for a submission, after the solve under way; stale ones are solved anew. */
    async solution(): Promise<string | null> {
      setWaiting(true);
      try {
        const payload = await (current.current ?? solveNew());
        if (payload && !altchaPayloadStale(payload, Date.now())) return payload;
        return await solveNew();
      } finally {
        setWaiting(false);
      }
    },
    /** An accepted submission used the solution up: the next one solves a new challenge. */
    used() {
      current.current = null;
      setPhase("idle");
    },
    /** The status line under the submit button (announced politely). */
    statusText:
      waiting && phase === "verifying" ? texts.waiting : phase === "idle" ? "" : texts[phase],
    waiting,
  };
}
