/** The browser's player for a stored voice message (`/api/audio/<path>`), in the admin and landing views. */
export function VoicePlayer({ audioPath, className }: { audioPath: string; className: string }) {
  return (
    // biome-ignore lint/a11y/useMediaCaption: voice messages of visitors have no captions
    <audio controls preload="metadata" src={`/api/audio/${audioPath}`} className={className}>
      Dein Browser unterstützt keine Audio-Wiedergabe.
    </audio>
  );
}
