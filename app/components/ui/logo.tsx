import { useBrand } from "./use-brand";

/** The product mark (the same drawing as /favicon.svg); decorative next to the brand name. */
export function LogoMark({ className = "size-8" }: { className?: string }) {
  const { logoUrl } = useBrand();
  // The agency's own logo (issue 29): decorative too, the name stands beside it.
  if (logoUrl)
    return <img src={logoUrl} alt="" className={`shrink-0 object-contain ${className}`} />;
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
  const { name } = useBrand();
  return (
    <a
      href="/"
      className="flex shrink-0 items-center gap-2 rounded-md font-bold text-slate-900 dark:text-white"
    >
      <LogoMark />
      <span className={compact ? "hidden sm:inline" : undefined}>{name}</span>
      {compact ? <span className="sr-only sm:hidden">{name} – Startseite</span> : null}
    </a>
  );
}
