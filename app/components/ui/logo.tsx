import { useBrand } from "./use-brand";

/** The mark's box per size: the square drawing, or the agency's logo by its height. */
const SIZES = {
  6: { mark: "size-6", logo: "h-6 max-w-[6rem]" },
  8: { mark: "size-8", logo: "h-8 max-w-[8rem] sm:max-w-[10rem]" },
  /** The admin header: on a phone its row also holds "Admin-Bereich" and three buttons (the
   *  square's width there, the logo's own from 640 px). */
  admin: { mark: "size-8", logo: "h-8 max-w-[2rem] sm:max-w-[10rem]" },
} as const;

/**
 * The product mark (the same drawing as /favicon.svg); decorative next to the brand name. The
 * agency's own logo keeps its proportions: as high as the mark, as wide as it is (a 4:1 wordmark
 * is 128 px wide at 32 px, not squeezed into the square), up to `max-w`.
 */
export function LogoMark({
  size = 8,
  className = "",
}: {
  size?: keyof typeof SIZES;
  className?: string;
}) {
  const { logoUrl } = useBrand();
  // The agency's own logo (ADRs 268, 293): decorative too, the name stands beside it.
  if (logoUrl)
    return (
      <img
        src={logoUrl}
        alt=""
        className={`w-auto shrink-0 object-contain object-left ${SIZES[size].logo} ${className}`}
      />
    );
  return (
    <svg
      viewBox="0 0 32 32"
      aria-hidden="true"
      focusable="false"
      className={`shrink-0 ${SIZES[size].mark} ${className}`}
    >
      <rect width="32" height="32" rx="8" fill="#4f46e5" />
      <path
        d="M9 21l5-10 4 7 2-3 3 6"
        fill="none"
        stroke="#fff"
        strokeWidth="2.5"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/** Logo and brand name as a link to the public page. `compact` hides the name on phones. */
export function BrandLink({ compact = false }: { compact?: boolean }) {
  const { name } = useBrand();
  return (
    <a
      href="/"
      className="flex min-w-0 shrink-0 items-center gap-2 rounded-md font-bold text-slate-900 dark:text-white"
    >
      <LogoMark />
      <span className={compact ? "hidden sm:inline" : undefined}>{name}</span>
      {compact ? <span className="sr-only sm:hidden">{name} – Startseite</span> : null}
    </a>
  );
}
