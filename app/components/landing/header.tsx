import { useRouteLoaderData } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { BrandLink } from "~/components/ui/logo";
import { ThemeToggle } from "~/components/ui/theme-toggle";
import type { ThemeChoice } from "~/lib/brand";
import { CarriedReferrer } from "./attribution-fields";

/**
 * The site header. `home`: "" on the landing page (its links are in-page anchors), "/" on the
 * visitor's other pages (booking, manage, withdrawal), whose links lead to the landing page.
 */
export function Header({
  theme,
  hasHistory,
  home = "",
}: {
  theme: ThemeChoice;
  hasHistory: boolean;
  home?: "" | "/";
}) {
  return (
    <header className="sticky top-0 z-30 border-b border-slate-200/80 bg-white/90 backdrop-blur dark:border-slate-800 dark:bg-slate-950/90">
      <nav
        aria-label="Hauptnavigation"
        className="mx-auto flex max-w-6xl items-center justify-between gap-2 px-4 py-2 sm:px-6 sm:py-3"
      >
        <BrandLink compact />
        <div className="flex items-center gap-1 sm:gap-2">
          {hasHistory ? (
            <a
              href={`${home}#history`}
              className={`${buttonClass("ghost", "sm")} whitespace-nowrap`}
              aria-label="Meine Anfragen"
            >
              {/* One header line at 390 px: the short word on phones. */}
              <span className="sm:hidden">Anfragen</span>
              <span className="hidden sm:inline">Meine Anfragen</span>
            </a>
          ) : null}
          <ThemeToggle theme={theme}>
            <CarriedReferrer />
          </ThemeToggle>
          <a
            href={`${home}#contact`}
            className={`${buttonClass("primary", "sm")} whitespace-nowrap`}
          >
            Jetzt loslegen
          </a>
        </div>
      </nav>
    </header>
  );
}

/** The landing page's header on the visitor's other pages (theme from the root loader). */
export function SiteHeader({ hasHistory = false }: { hasHistory?: boolean }) {
  const root = useRouteLoaderData("root") as { theme?: ThemeChoice } | undefined;
  return <Header theme={root?.theme ?? "system"} hasHistory={hasHistory} home="/" />;
}
