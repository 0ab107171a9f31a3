import type { ReactNode } from "react";
import { useFetcher, useLocation } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { iconProps } from "~/components/ui/icons";
import type { ThemeChoice } from "~/lib/brand";

type Theme = "light" | "dark";

const LABEL: Record<Theme, { aria: string; title: string }> = {
  // The label names the theme the button switches to.
  dark: { aria: "Dunklen Modus aktivieren", title: "Dunkler Modus" },
  light: { aria: "Hellen Modus aktivieren", title: "Heller Modus" },
};

/**
 * Light/dark switch for the landing page and the admin area. Until a theme is chosen
 * (`theme === "system"`) the server cannot know the OS preference, so both buttons render and CSS
 * (the `dark:` variant follows `prefers-color-scheme` then) shows the one that switches away from
 * what is on screen: right without JavaScript and without a flash.
 */
export function ThemeToggle({
  theme,
  children,
}: {
  theme: ThemeChoice;
  /** Extra hidden fields of the no-JS post (the landing page's carried referrer). */
  children?: ReactNode;
}) {
  const fetcher = useFetcher();
  const location = useLocation();
  const pending = fetcher.formData?.get("theme");
  const current: ThemeChoice = pending === "dark" || pending === "light" ? pending : theme;
  const targets: { next: Theme; className?: string }[] =
    current === "system"
      ? [
          { next: "dark", className: "dark:hidden" },
          { next: "light", className: "hidden dark:inline" },
        ]
      : [{ next: current === "dark" ? "light" : "dark" }];
  return (
    <fetcher.Form
      method="post"
      action="/preferences/theme"
      onSubmit={(event) => {
        event.preventDefault();
        const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
        const next = submitter?.value === "light" ? "light" : "dark";
        const root = document.documentElement.classList;
        root.toggle("dark", next === "dark");
        root.toggle("light", next === "light");
        fetcher.submit({ theme: next, js: "1" }, { method: "post", action: "/preferences/theme" });
      }}
    >
      <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
      {children}
      {targets.map(({ next, className }) => (
        <span key={next} className={className}>
          <button
            type="submit"
            name="theme"
            value={next}
            className={buttonClass("ghost", "sm")}
            aria-label={LABEL[next].aria}
            title={LABEL[next].title}
          >
            {next === "dark" ? <MoonIcon /> : <SunIcon />}
          </button>
        </span>
      ))}
    </fetcher.Form>
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
