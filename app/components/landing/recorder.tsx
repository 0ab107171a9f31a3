import fixWebmDuration from "fix-webm-duration";
import { type RefObject, useCallback, useEffect, useRef, useState } from "react";
import { buttonClass } from "~/components/ui/button";
import { MicIcon } from "~/components/ui/icons";
import { levelFromSamples, MAX_RECORDING_SECONDS, remainingLabel } from "~/lib/recording";

export const MICROPHONE_DENIED = "Mikrofon-Zugriff wurde verweigert oder ist nicht verfügbar.";
export type Recording = { blob: Blob; url: string; duration: number };
/**
 * What the form may ask of a mounted recorder: is it recording, and stop a running recording and
 * resolve once its file is handed over by `onChange` (a submit during a recording sends it).
 */
export type RecorderControl = { recording: () => boolean; finish: () => Promise<void> };

/** Live input level while recording: an AnalyserNode read each frame (each second with reduced motion). */
function startLevelMeter(stream: MediaStream, show: (level: number) => void) {
  const AudioCtx = window.AudioContext;
  if (!AudioCtx) return () => {};
  const context = new AudioCtx();
  const analyser = context.createAnalyser();
  analyser.fftSize = 256;
  context.createMediaStreamSource(stream).connect(analyser);
  const samples = new Uint8Array(analyser.fftSize);
  const read = () => {
    analyser.getByteTimeDomainData(samples);
    show(levelFromSamples(samples));
  };
  const reduced = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
  let frame = 0;
  let interval: ReturnType<typeof setInterval> | undefined;
  if (reduced) interval = setInterval(read, 1000);
  else {
    const loop = () => {
      read();
      frame = requestAnimationFrame(loop);
    };
    frame = requestAnimationFrame(loop);
  }
  return () => {
    cancelAnimationFrame(frame);
    clearInterval(interval);
    void context.close();
  };
}

/**
 * Voice recorder (loaded on demand): record, stop, play, re-record, delete; webm via MediaRecorder
 * with its duration written into the file (fix-webm-duration, ADR 112), a timer ticking each
 * second with the remaining time, a level meter, an automatic stop at the maximum length, the
 * microphone released on stop.
 */
export default function Recorder({
  autoStart,
  onChange,
  control,
  maxSeconds = MAX_RECORDING_SECONDS,
}: {
  autoStart?: boolean;
  onChange: (recording: Recording | null) => void;
  control?: RefObject<RecorderControl | null>;
  maxSeconds?: number;
}) {
  const [state, setState] = useState<"idle" | "recording" | "recorded">("idle");
  const [seconds, setSeconds] = useState(0);
  const [recording, setRecording] = useState<Recording | null>(null);
  const [playing, setPlaying] = useState(false);
  const [position, setPosition] = useState(0);
  const recorderRef = useRef<MediaRecorder | null>(null);
  const streamRef = useRef<MediaStream | null>(null);
  const timerRef = useRef<ReturnType<typeof setInterval> | undefined>(undefined);
  const meterRef = useRef<HTMLMeterElement>(null);
  const stopMeterRef = useRef<() => void>(() => {});
  const audioRef = useRef<HTMLAudioElement>(null);
  const secondsRef = useRef(0);
  /** Waiting for the running recording's file (a submit during the recording). */
  const finishedRef = useRef<(() => void)[]>([]);
  const handedOver = useCallback(() => {
    for (const resolve of finishedRef.current.splice(0)) resolve();
  }, []);

  const release = useCallback(() => {
    clearInterval(timerRef.current);
    stopMeterRef.current();
    stopMeterRef.current = () => {};
    for (const track of streamRef.current?.getTracks() ?? []) track.stop();
    streamRef.current = null;
  }, []);

  const stop = useCallback(() => {
    if (recorderRef.current?.state === "recording") recorderRef.current.stop();
    release();
  }, [release]);

  const discard = useCallback(() => {
    setRecording(null);
    setPlaying(false);
    setPosition(0);
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
    let startedAt = performance.now();
    // The timer counts from the moment the audio starts (the start event can come a moment after
    // start() on a busy device): the limit then gives the whole five minutes of audio, and the
    // seconds shown are the recording's own. A recorder stopped before it started never ticks.
    recorder.onstart = () => {
      startedAt = performance.now();
      if (recorder.state !== "recording") return;
      timerRef.current = setInterval(() => {
        secondsRef.current += 1;
        setSeconds(secondsRef.current);
        if (secondsRef.current >= maxSeconds) stop();
      }, 1000);
    };
    recorder.ondataavailable = (event) => {
      if (event.data.size) chunks.push(event.data);
    };
    recorder.onstop = async () => {
      const raw = new Blob(chunks, { type: "audio/webm" });
      if (!raw.size) {
        // Stopped before any audio arrived: nothing to keep.
        setState("idle");
        handedOver();
        return;
      }
      const ms = Math.max(1, Math.round(performance.now() - startedAt));
      // MediaRecorder's WebM has no duration; players would show none (or Infinity) without it.
      const blob = await fixWebmDuration(raw, ms, { logger: false }).catch(() => raw);
      const typed = blob.type ? blob : new Blob([blob], { type: "audio/webm" });
      const next = {
        blob: typed,
        url: URL.createObjectURL(typed),
        duration: Math.round(ms / 1000),
      };
      setRecording(next);
      setPosition(0);
      setPlaying(false);
      setState("recorded");
      onChange(next);
      handedOver();
    };
    recorderRef.current = recorder;
    secondsRef.current = 0;
    setSeconds(0);
    recorder.start(250);
    setState("recording");
    stopMeterRef.current = startLevelMeter(stream, (level) => {
      const meter = meterRef.current;
      if (!meter) return;
      meter.value = Math.round(level * 100);
    });
  }, [onChange, maxSeconds, stop, handedOver]);

  useEffect(() => {
    if (!control) return;
    const recording = () => recorderRef.current?.state === "recording";
    control.current = {
      recording,
      finish: () =>
        recording()
          ? new Promise<void>((resolve) => {
              finishedRef.current.push(resolve);
              stop();
            })
          : Promise.resolve(),
    };
    return () => {
      control.current = null;
      handedOver();
    };
  }, [control, stop, handedOver]);

  const started = useRef(false);
  useEffect(() => {
    if (autoStart && !started.current) {
      started.current = true;
      void start();
    }
  }, [autoStart, start]);
  useEffect(() => release, [release]);

  const togglePlayback = () => {
    const audio = audioRef.current;
    if (!audio) return;
    if (audio.paused) void audio.play();
    else audio.pause();
  };

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
                className="h-2.5 w-2.5 rounded-full bg-red-600 motion-safe:animate-pulse"
              />
              Aufnahme läuft
            </span>
            <span className="font-mono text-sm" aria-live="off" data-testid="recorder-timer">
              {seconds} s
            </span>
            <span
              className="text-sm text-slate-600 dark:text-slate-400"
              data-testid="recorder-remaining"
            >
              ({remainingLabel(seconds, maxSeconds)})
            </span>
            <meter
              ref={meterRef}
              aria-label="Eingangspegel"
              min={0}
              max={100}
              value={0}
              data-testid="recorder-level"
              className="h-2 w-24"
            />
            <button type="button" className={buttonClass("danger", "sm")} onClick={stop}>
              Aufnahme stoppen
            </button>
          </>
        ) : null}
        {state === "recorded" && recording ? (
          <>
            <button
              type="button"
              className={buttonClass("secondary", "sm")}
              onClick={togglePlayback}
              aria-pressed={playing}
            >
              {playing ? "Pausieren" : "Abspielen"}
            </button>
            <span className="font-mono text-sm" data-testid="recorder-duration">
              {playing || position ? `${position} s / ` : ""}
              {recording.duration} s
            </span>
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
        // One playback control (the button above): the element itself shows no second player.
        // biome-ignore lint/a11y/useMediaCaption: the visitor's own recording has no captions
        <audio
          ref={audioRef}
          src={recording.url}
          preload="metadata"
          hidden
          onPlay={() => setPlaying(true)}
          onPause={() => setPlaying(false)}
          onEnded={() => {
            setPlaying(false);
            setPosition(0);
          }}
          onTimeUpdate={(event) => setPosition(Math.floor(event.currentTarget.currentTime))}
        >
          Dein Browser unterstützt keine Audio-Wiedergabe.
        </audio>
      ) : null}
    </div>
  );
}
