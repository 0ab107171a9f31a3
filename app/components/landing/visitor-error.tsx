import { Link } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { AgencyContact } from "./agency-contact";

/**
 * The error page of a visitor route's ErrorBoundary (an invalid or expired link among others; the
 * site header comes from the visitor layout): the route's own title, the German text the server answered with (a thrown
 * `data("…", 4xx)`), or the route's fallback, a way home and a way to reach the agency.
 */
export function VisitorError({
  error,
  title,
  fallback,
}: {
  error: unknown;
  title: string;
  fallback: string;
}) {
  const message =
    error && typeof error === "object" && "data" in error && typeof error.data === "string"
      ? error.data
      : fallback;
  return (
    <main className="mx-auto max-w-xl px-4 py-12 text-center sm:py-16">
      <h1 className="text-2xl font-bold">{title}</h1>
      <p className="mt-4">{message}</p>
      <Link to="/" className={`${buttonClass("primary", "sm")} mt-6`}>
        Zur Startseite
      </Link>
      <AgencyContact />
    </main>
  );
}
