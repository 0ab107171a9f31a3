import { useFetcher, useLocation } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { iconProps } from "~/components/ui/icons";

export function Header({ theme, hasHistory }: { theme: "light" | "dark"; hasHistory: boolean }) {
  const fetcher = useFetcher();
  const location = useLocation();
  const pending = fetcher.formData?.get("theme");
  const current = pending === "dark" || pending === "light" ? pending : theme;
  const next = current === "dark" ? "light" : "dark";
  return (
    <header className="sticky top-0 z-30 border-b border-slate-200/80 bg-white/90 backdrop-blur dark:border-slate-800 dark:bg-slate-950/90">
      <nav
        aria-label="Hauptnavigation"
        className="mx-auto flex max-w-6xl items-center justify-between gap-2 px-4 py-2 sm:px-6 sm:py-3"
      >
        <a
          href="/"
          className="flex items-center gap-2 rounded-md font-bold text-slate-900 dark:text-white"
        >
          <span
            aria-hidden="true"
            className="grid h-8 w-8 place-items-center rounded-lg bg-indigo-600 text-sm text-white"
          >
            3T
          </span>
          <span className="hidden sm:inline">Testversion in 3 Tagen</span>
          <span className="sr-only sm:hidden">Startseite</span>
        </a>
        <div className="flex items-center gap-1 sm:gap-2">
          {hasHistory ? (
            <a
              href="#history"
              className={`${buttonClass("ghost", "sm")} whitespace-nowrap`}
              aria-label="Meine Anfragen"
            >
              {/* One header line at 390 px: the short word on phones. */}
              <span className="sm:hidden">Anfragen</span>
              <span className="hidden sm:inline">Meine Anfragen</span>
            </a>
          ) : null}
          <fetcher.Form
            method="post"
            action="/preferences/theme"
            onSubmit={(event) => {
              event.preventDefault();
              document.documentElement.classList.toggle("dark", next === "dark");
              fetcher.submit(
                { theme: next, js: "1" },
                { method: "post", action: "/preferences/theme" },
              );
            }}
          >
            <input type="hidden" name="theme" value={next} />
            <input
              type="hidden"
              name="redirectTo"
              value={`${location.pathname}${location.search}`}
            />
            <button
              type="submit"
              className={buttonClass("ghost", "sm")}
              aria-label={
                current === "dark" ? "Hellen Modus aktivieren" : "Dunklen Modus aktivieren"
              }
              title={current === "dark" ? "Heller Modus" : "Dunkler Modus"}
            >
              {current === "dark" ? <SunIcon /> : <MoonIcon />}
            </button>
          </fetcher.Form>
          <a href="#contact" className={`${buttonClass("primary", "sm")} whitespace-nowrap`}>
            Jetzt loslegen
          </a>
        </div>
      </nav>
    </header>
  );
}

/** SVG icons (emoji render as empty boxes where no emoji font is installed). */

function SunIcon() {
  return (
    <svg {...iconProps}>
      <circle cx="12" cy="12" r="4" />
      <path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
    </svg>
  );
}

function MoonIcon() {
  return (
    <svg {...iconProps}>
      <path d="M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8z" />
    </svg>
  );
}
