/** Inline SVG icons (stroke style, currentColor); always decorative — the text beside them names the action. */
export const iconProps = {
  "aria-hidden": true,
  width: 18,
  height: 18,
  viewBox: "0 0 24 24",
  fill: "none",
  stroke: "currentColor",
  strokeWidth: 2,
  strokeLinecap: "round",
  strokeLinejoin: "round",
} as const;

type IconProps = { size?: number; className?: string };

export function MicIcon({ size = 18, className }: IconProps) {
  return (
    <svg {...iconProps} width={size} height={size} className={className} data-icon="mic">
      <rect x="9" y="2" width="6" height="12" rx="3" />
      <path d="M5 10v1a7 7 0 0 0 14 0v-1M12 18v4M8 22h8" />
    </svg>
  );
}

export function BoltIcon({ size = 18, className }: IconProps) {
  return (
    <svg {...iconProps} width={size} height={size} className={className} data-icon="bolt">
      <path d="M13 2 3 14h9l-1 8 10-12h-9l1-8z" />
    </svg>
  );
}

export function PeopleIcon({ size = 18, className }: IconProps) {
  return (
    <svg {...iconProps} width={size} height={size} className={className} data-icon="people">
      <circle cx="9" cy="7" r="4" />
      <path d="M2 21v-2a4 4 0 0 1 4-4h6a4 4 0 0 1 4 4v2M16 3.1a4 4 0 0 1 0 7.8M22 21v-2a4 4 0 0 0-3-3.9" />
    </svg>
  );
}

export function CheckIcon({ size = 18, className }: IconProps) {
  return (
    <svg {...iconProps} width={size} height={size} className={className} data-icon="check">
      <path d="M20 6 9 17l-5-5" />
    </svg>
  );
}

export function CloseIcon({ size = 18, className }: IconProps) {
  return (
    <svg {...iconProps} width={size} height={size} className={className} data-icon="close">
      <path d="M18 6 6 18M6 6l12 12" />
    </svg>
  );
}

export function PaperclipIcon({ size = 18, className }: IconProps) {
  return (
    <svg {...iconProps} width={size} height={size} className={className} data-icon="paperclip">
      <path d="m21 11-8.6 8.6a5.5 5.5 0 0 1-7.8-7.8l8.6-8.6a3.7 3.7 0 0 1 5.2 5.2l-8.6 8.6a1.8 1.8 0 0 1-2.6-2.6L15.6 6.9" />
    </svg>
  );
}

export function CalendarIcon({ size = 18, className }: IconProps) {
  return (
    <svg {...iconProps} width={size} height={size} className={className} data-icon="calendar">
      <rect x="3" y="5" width="18" height="16" rx="2" />
      <path d="M16 3v4M8 3v4M3 10h18" />
    </svg>
  );
}
