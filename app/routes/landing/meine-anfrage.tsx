import { VisitorError } from "~/components/landing/visitor-error";
import { followRequestLink } from "~/server/visitors/visitor.server";
import type { Route } from "./+types/meine-anfrage";

export const meta: Route.MetaFunction = () => [
  { title: "Deine Anfrage" },
  { name: "robots", content: "noindex" },
];

// The token must not travel to other sites in a Referer header nor sit in a shared cache.
export function headers() {
  return { "Cache-Control": "private, no-store", "Referrer-Policy": "same-origin" };
}

/** The signed link from the receipt: the request joins this browser's history (ADR 220). */
export function loader({ request }: Route.LoaderArgs) {
  return followRequestLink(request);
}

/** The loader always redirects or refuses; there is nothing to render. */
export default function RequestLink() {
  return null;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <VisitorError
      error={error}
      title="Deine Anfrage"
      fallback="Dieser Link konnte nicht geöffnet werden."
    />
  );
}
