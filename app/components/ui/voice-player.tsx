/** The browser's player for a stored voice message (`/api/audio/<path>`), in the admin and landing views. */
export function VoicePlayer({
  audioPath,
  className,
  admin = false,
}: {
  audioPath: string;
  className: string;
  /** The admin views say "Sie", the visitor's history "du". */
  admin?: boolean;
}) {
  return (
    // biome-ignore lint/a11y/useMediaCaption: voice messages of visitors have no captions
    <audio controls preload="metadata" src={`/api/audio/${audioPath}`} className={className}>
      {admin
        ? "Ihr Browser unterstützt keine Audio-Wiedergabe."
        : "Dein Browser unterstützt keine Audio-Wiedergabe."}
    </audio>
  );
}
