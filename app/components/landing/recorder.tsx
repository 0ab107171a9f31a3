import { useCallback, useEffect, useRef, useState } from "react";
import { buttonClass } from "~/components/ui/button";
import { MicIcon } from "~/components/ui/icons";

export const MICROPHONE_DENIED = "Mikrofon-Zugriff wurde verweigert oder ist nicht verfügbar.";
export type Recording = { blob: Blob; url: string; duration: number };

/**
 * Voice recorder (loaded on demand): record, stop, play, re-record, delete; webm via MediaRecorder,
 * a timer ticking each second, the microphone released on stop.
 */
export default function Recorder({
  autoStart,
  onChange,
}: {
  autoStart?: boolean;
  onChange: (recording: Recording | null) => void;
}) {
  const [state, setState] = useState<"idle" | "recording" | "recorded">("idle");
  const [seconds, setSeconds] = useState(0);
  const [recording, setRecording] = useState<Recording | null>(null);
  const recorderRef = useRef<MediaRecorder | null>(null);
  const streamRef = useRef<MediaStream | null>(null);
  const timerRef = useRef<ReturnType<typeof setInterval> | undefined>(undefined);
  const audioRef = useRef<HTMLAudioElement>(null);
  const secondsRef = useRef(0);

  const release = useCallback(() => {
    clearInterval(timerRef.current);
    for (const track of streamRef.current?.getTracks() ?? []) track.stop();
    streamRef.current = null;
  }, []);

  const discard = useCallback(() => {
    setRecording(null);
    onChange(null);
  }, [onChange]);
  // The object URL is released after the audio element that uses it is gone.
  useEffect(() => {
    if (!recording) return;
    const url = recording.url;
    return () => URL.revokeObjectURL(url);
  }, [recording]);

  const start = useCallback(async () => {
    let stream: MediaStream;
    try {
      if (!navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === "undefined") {
        throw new Error("unsupported");
      }
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch {
      window.alert(MICROPHONE_DENIED);
      setState("idle");
      return;
    }
    streamRef.current = stream;
    const mimeType = MediaRecorder.isTypeSupported("audio/webm;codecs=opus")
      ? "audio/webm;codecs=opus"
      : "audio/webm";
    const recorder = new MediaRecorder(stream, { mimeType });
    const chunks: Blob[] = [];
    recorder.ondataavailable = (event) => {
      if (event.data.size) chunks.push(event.data);
    };
    recorder.onstop = () => {
      const blob = new Blob(chunks, { type: "audio/webm" });
      if (!blob.size) {
        // Stopped before any audio arrived: nothing to keep.
        setState("idle");
        return;
      }
      const next = { blob, url: URL.createObjectURL(blob), duration: secondsRef.current };
      setRecording(next);
      setState("recorded");
      onChange(next);
    };
    recorderRef.current = recorder;
    secondsRef.current = 0;
    setSeconds(0);
    recorder.start(250);
    setState("recording");
    timerRef.current = setInterval(() => {
      secondsRef.current += 1;
      setSeconds(secondsRef.current);
    }, 1000);
  }, [onChange]);

  const stop = () => {
    if (recorderRef.current?.state === "recording") recorderRef.current.stop();
    release();
  };

  const started = useRef(false);
  useEffect(() => {
    if (autoStart && !started.current) {
      started.current = true;
      void start();
    }
  }, [autoStart, start]);
  useEffect(() => release, [release]);

  return (
    <div
      className="rounded-lg border border-slate-200 p-3 dark:border-slate-700"
      data-testid="recorder"
    >
      <div className="flex flex-wrap items-center gap-2">
        {state === "idle" ? (
          <button
            type="button"
            className={buttonClass("secondary", "sm")}
            onClick={() => void start()}
          >
            <MicIcon /> Aufnahme starten
          </button>
        ) : null}
        {state === "recording" ? (
          <>
            <span className="inline-flex items-center gap-2 text-sm font-semibold text-red-700 dark:text-red-300">
              <span
                aria-hidden="true"
                className="h-2.5 w-2.5 animate-pulse rounded-full bg-red-600"
              />
              Aufnahme läuft
            </span>
            <span className="font-mono text-sm" aria-live="off" data-testid="recorder-timer">
              {seconds} s
            </span>
            <button type="button" className={buttonClass("danger", "sm")} onClick={stop}>
              Aufnahme stoppen
            </button>
          </>
        ) : null}
        {state === "recorded" && recording ? (
          <>
            <span className="font-mono text-sm">{recording.duration} s</span>
            <button
              type="button"
              className={buttonClass("secondary", "sm")}
              onClick={() => void audioRef.current?.play()}
            >
              Abspielen
            </button>
            <button
              type="button"
              className={buttonClass("secondary", "sm")}
              onClick={() => {
                discard();
                setState("idle");
                void start();
              }}
            >
              Neu aufnehmen
            </button>
            <button
              type="button"
              className={buttonClass("ghost", "sm")}
              onClick={() => {
                discard();
                setState("idle");
              }}
            >
              Löschen
            </button>
          </>
        ) : null}
      </div>
      {recording ? (
        // biome-ignore lint/a11y/useMediaCaption: the visitor's own recording has no captions
        <audio ref={audioRef} controls src={recording.url} className="mt-2 w-full">
          Dein Browser unterstützt keine Audio-Wiedergabe.
        </audio>
      ) : null}
    </div>
  );
}
