// Pure helpers of the voice recorder (its limit, the remaining time, the level meter).

/** The longest voice message; the recorder stops by itself when it is reached. */
export const MAX_RECORDING_SECONDS = 300;

/** Remaining recording time beside the running timer: "noch 4:48". */
export function remainingLabel(elapsedSeconds: number, maxSeconds = MAX_RECORDING_SECONDS): string {
  const left = Math.max(0, Math.floor(maxSeconds - elapsedSeconds));
  const minutes = Math.floor(left / 60);
  const seconds = String(left % 60).padStart(2, "0");
  return `noch ${minutes}:${seconds}`;
}

/**
 * The input level (0..1) from an AnalyserNode's time-domain bytes (128 = silence): the RMS of the
 * samples, scaled so that normal speech fills most of the meter.
 */
export function levelFromSamples(samples: ArrayLike<number>): number {
  if (!samples.length) return 0;
  let sum = 0;
  for (let i = 0; i < samples.length; i++) {
    const v = (samples[i] - 128) / 128;
    sum += v * v;
  }
  const rms = Math.sqrt(sum / samples.length);
  return Math.min(1, rms * 3);
}
