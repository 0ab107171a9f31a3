import { BRAND_NAME } from "~/lib/brand";

/** The product mark (the same drawing as /favicon.svg); decorative next to the brand name. */
export function LogoMark({ className = "size-8" }: { className?: string }) {
  return (
    <svg
      viewBox="0 0 32 32"
      aria-hidden="true"
      focusable="false"
      className={`shrink-0 ${className}`}
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
  return (
    <a
      href="/"
      className="flex shrink-0 items-center gap-2 rounded-md font-bold text-slate-900 dark:text-white"
    >
      <LogoMark />
      <span className={compact ? "hidden sm:inline" : undefined}>{BRAND_NAME}</span>
      {compact ? <span className="sr-only sm:hidden">{BRAND_NAME} – Startseite</span> : null}
    </a>
  );
}
