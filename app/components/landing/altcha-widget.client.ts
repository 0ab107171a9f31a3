// Loaded on the first interaction with the contact form (never with the page: ADRs 011, 170, 250).
// The widget's external build has no inline worker: its PBKDF2 worker is a file under /assets, so
// the CSP needs no `blob:` worker source.
import "altcha/external";
import Pbkdf2Worker from "altcha/workers/pbkdf2?worker";
import { ALTCHA_CHALLENGE_URL, ALTCHA_FIELD } from "~/lib/altcha";

type WidgetState = "unverified" | "verifying" | "verified" | "expired" | "error" | "code";
type AltchaElement = HTMLElement & {
  configure(config: Record<string, unknown>): Promise<void>;
  getState(): WidgetState;
  verify(): Promise<{ payload: string } | null>;
  reset(): void;
};

const altcha = (globalThis as unknown as { $altcha: { algorithms: Map<string, () => Worker> } })
  .$altcha;
altcha.algorithms.set("PBKDF2/SHA-256", () => new Pbkdf2Worker());

export type AltchaHandle = {
  /** Solves a new challenge; resolves with the payload, or null when that failed. */
  solve(): Promise<string | null>;
  state(): WidgetState;
};

/**
 * An invisible ALTCHA widget in `container` (inside the form, so its hidden `altcha` field is
 * submitted with it). It never starts on its own: `solve()` fetches a challenge and works on it.
 * Resolves once the widget is mounted (its methods exist from its `load` event on).
 */
export function mountAltcha(container: HTMLElement): Promise<AltchaHandle> {
  const widget = document.createElement("altcha-widget") as AltchaElement;
  widget.setAttribute("name", ALTCHA_FIELD);
  widget.setAttribute("challenge", ALTCHA_CHALLENGE_URL);
  widget.setAttribute("display", "invisible");
  widget.setAttribute("auto", "off");
  widget.setAttribute("language", "de");
  // Read at mount: nothing about the visitor's pointer or scrolling is collected (ADR 101).
  widget.setAttribute(
    "configuration",
    JSON.stringify({ humanInteractionSignature: false, hideFooter: true, minDuration: 0 }),
  );
  const loaded = new Promise<void>((resolve) =>
    widget.addEventListener("load", () => resolve(), { once: true }),
  );
  container.append(widget);
  return loaded.then(() => ({
    async solve() {
      const result = await widget.verify().catch(() => null);
      return result?.payload ?? null;
    },
    state: () => widget.getState(),
  }));
}
