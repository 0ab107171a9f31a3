import { lazy, type RefObject, Suspense, useLayoutEffect, useRef, useState } from "react";
import { buttonClass } from "~/components/ui/button";
import { MicIcon } from "~/components/ui/icons";
import { useHydrated } from "~/components/ui/use-hydrated";
import { fileInputClass, labelClass } from "./contact-fields";
import type { RecorderControl, Recording } from "./recorder";

const Recorder = lazy(() => import("./recorder"));

/**
 * The optional voice message: with JS a button that loads the recorder; without JS an audio file
 * input styled like the attachment input.
 */
export function VoiceField({
  open,
  onOpen,
  resetKey,
  onChange,
  control,
}: {
  open: boolean;
  onOpen: () => void;
  /** Changing it starts a fresh recorder (reset from outside). */
  resetKey: number;
  onChange: (recording: Recording | null) => void;
  /** The mounted recorder's handle (a submit stops a running recording and sends it). */
  control: RefObject<RecorderControl | null>;
}) {
  const hydrated = useHydrated();
  // A file picked before the page hydrated (on the first interaction, ADR 170) keeps its input
  // (checked before the first client render swaps it for the recorder) until the form is reset.
  const inputRef = useRef<HTMLInputElement>(null);
  const [pickedAt, setPickedAt] = useState<number | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, at hydration (resetKey is its value then)
  useLayoutEffect(() => {
    const input = inputRef.current;
    if (input && (input.files?.length || document.activeElement === input)) setPickedAt(resetKey);
  }, []);
  // A frame without allow="microphone" (the embedded form, ADR 283) cannot record: the file input.
  const micBlocked = hydrated && microphoneBlocked();
  const fileInput = !hydrated || pickedAt === resetKey || micBlocked;
  // The block keeps the no-JS input's height (its hint wraps to two lines on phones) when the
  // recorder button replaces it at hydration: hydration starts with the first scroll or pointer
  // move (ADR 170), and the content below must not jump under the visitor's pointer.
  return (
    <div className="min-h-24 sm:min-h-20">
      {!fileInput ? (
        <span className={labelClass} id="voice-label">
          Sprachnachricht (optional)
        </span>
      ) : (
        <label className={labelClass} id="voice-label" htmlFor="contact-audio">
          Sprachnachricht (optional)
        </label>
      )}
      {fileInput ? (
        <input
          ref={inputRef}
          id="contact-audio"
          type="file"
          name="audio"
          accept="audio/*"
          aria-describedby="contact-audio-hint"
          className={fileInputClass}
        />
      ) : open ? (
        <Suspense fallback={<p className="text-sm">Rekorder wird geladen …</p>}>
          <Recorder key={resetKey} autoStart onChange={onChange} control={control} />
        </Suspense>
      ) : (
        <button
          type="button"
          className={buttonClass("secondary", "sm")}
          onClick={onOpen}
          aria-describedby="contact-audio-hint"
        >
          <MicIcon /> Sprachnachricht aufnehmen
        </button>
      )}
      {fileInput || !open ? (
        <p id="contact-audio-hint" className="mt-1 text-xs text-slate-500 dark:text-slate-400">
          {!fileInput
            ? "Erzähl uns deine Idee einfach, statt sie aufzuschreiben."
            : micBlocked
              ? "Aufnehmen geht hier nicht: Diese Seite hat dem eingebetteten Formular das Mikrofon nicht freigegeben. Wähl stattdessen eine Audiodatei aus, z. B. eine Sprachmemo von deinem Handy."
              : "Eine Audiodatei, z. B. eine Sprachmemo von deinem Handy."}
        </p>
      ) : null}
    </div>
  );
}

type PolicyDocument = { allowsFeature?: (feature: string) => boolean };

/** Whether this document may not use the microphone (a frame without allow="microphone"). */
function microphoneBlocked(): boolean {
  const doc = document as { permissionsPolicy?: PolicyDocument; featurePolicy?: PolicyDocument };
  const policy = doc.permissionsPolicy ?? doc.featurePolicy;
  return policy?.allowsFeature ? !policy.allowsFeature("microphone") : false;
}
