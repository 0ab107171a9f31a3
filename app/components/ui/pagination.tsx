import { Link } from "react-router";
import { buttonClass } from "./button";

/** Previous / numbered / next page links (works without JS); hidden for a single page. */
export function Pagination({
  page,
  totalPages,
  text,
  hrefFor,
  window = 2,
}: {
  page: number;
  totalPages: number;
  /** e.g. 'Zeige 11 bis 20 von 42 Terminen' */
  text: string;
  hrefFor: (page: number) => string;
  /** How many numbered pages around the current one (first and last are always shown). */
  window?: number;
}) {
  if (totalPages <= 1) return null;
  const around = Array.from({ length: window * 2 + 1 }, (_, i) => page - window + i);
  const pages = [...new Set([1, ...around, totalPages])]
    .filter((p) => p >= 1 && p <= totalPages)
    .sort((a, b) => a - b);
  return (
    <nav aria-label="Seiten" className="flex flex-wrap items-center justify-between gap-3 text-sm">
      <p>{text}</p>
      <div className="flex flex-wrap items-center gap-1">
        {page > 1 ? (
          <Link className={buttonClass("secondary", "sm")} to={hrefFor(page - 1)}>
            Zurück
          </Link>
        ) : null}
        {pages.map((p) => (
          <Link
            key={p}
            to={hrefFor(p)}
            aria-current={p === page ? "page" : undefined}
            className={buttonClass(p === page ? "primary" : "ghost", "sm")}
          >
            {p}
          </Link>
        ))}
        {page < totalPages ? (
          <Link className={buttonClass("secondary", "sm")} to={hrefFor(page + 1)}>
            Weiter
          </Link>
        ) : null}
      </div>
    </nav>
  );
}
