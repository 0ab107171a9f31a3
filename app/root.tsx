// First: Zod's configuration must be in place before any schema module runs (no eval under our CSP).
import "./lib/zod-jitless.client";
import {
  data,
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  ScrollRestoration,
  type ShouldRevalidateFunction,
  useLoaderData,
  useMatches,
  useRouteLoaderData,
} from "react-router";
import type { Route } from "./+types/root";
import "./app.css";
import { AppScripts, type Hydration } from "./components/app-scripts";
import { useNonce } from "./components/nonce";
import { ModalProvider } from "./components/ui/modal";
import { ToastProvider } from "./components/ui/toast";
import { themeClass } from "./lib/brand";
import { brandColorStyle } from "./lib/brand-color";
import { brandedTitle } from "./lib/branding";
import { branding } from "./server/branding/branding.server";
import { isEmbedPath } from "./server/embed/embed.server";
import { getToast } from "./server/http/flash.server";
import { withIdempotency } from "./server/http/idempotency.server";
import { clientIp } from "./server/http/request-context.server";
import { bookingConfirmationMailed } from "./server/mail/outbox.server";
import { withAuditScope } from "./server/privacy/audit-via.server";
import { readTheme } from "./server/visitors/preferences.server";

export const links: Route.LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const middleware: Route.MiddlewareFunction[] = [
  // Each request names how its admin acts, for the audit log (ADR 319).
  (_, next) => withAuditScope(next as () => Promise<Response>),
  ({ request, context }, next) =>
    withIdempotency(request, clientIp(context), next as () => Promise<Response>),
];

export async function loader({ request, context }: Route.LoaderArgs) {
  // The framed form reads no cookie (ADR 283): no toast, the system's colour scheme.
  const embed = isEmbedPath(new URL(request.url).pathname);
  const { toast, headers } = embed
    ? { toast: null, headers: new Headers() }
    : await getToast(request, context);
  const brand = branding();
  // `bookingMail`: whether the booking success may promise a confirmation mail (BookingSuccess);
  // imprintUrl: the visitor's error pages name it as the way to reach the agency.
  return data(
    {
      theme: embed ? ("system" as const) : await readTheme(request),
      toast,
      bookingMail: bookingConfirmationMailed(),
      imprintUrl: brand.imprintUrl,
      // Name, logo and colour of every page's frame (ADR 268); part of the render cache's key.
      brand: { name: brand.name, logoUrl: brand.logoUrl, primaryColor: brand.primaryColor },
    },
    { headers },
  );
}

// Flash toasts may come from any redirect (also a loader's), so root reads them on every navigation.
export const shouldRevalidate: ShouldRevalidateFunction = () => true;

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<typeof loader>("root");
  const nonce = useNonce();
  // A route may load its JavaScript later than at once: `handle.hydration` (ADR 170, 171).
  const handles = useMatches().map(
    (m) => m.handle as { hydration?: Hydration; embed?: boolean } | undefined,
  );
  const hydration = handles.map((h) => h?.hydration).findLast(Boolean);
  // A cross-site frame (/embed, ADR 283) may not touch sessionStorage: no scroll restoration.
  const embed = handles.some((h) => h?.embed);
  return (
    <html
      lang="de"
      className={themeClass(data?.theme)}
      // The brand colour's accent shades (ADR 269): Tailwind's indigo variables, none by default.
      style={brandColorStyle(data?.brand.primaryColor ?? null)}
    >
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen bg-white text-slate-900 has-[[data-admin-layout]]:bg-slate-50 antialiased dark:bg-slate-950 dark:has-[[data-admin-layout]]:bg-slate-950 dark:text-slate-100">
        {children}
        {embed ? null : <ScrollRestoration nonce={nonce} />}
        <AppScripts nonce={nonce} hydration={hydration} />
      </body>
    </html>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: brandedTitle("Deine Software-Idee als Testversion in 3 Tagen", loaderData?.brand.name) },
  {
    name: "description",
    content:
      "Beschreibe deine Software-Idee per Text, Sprachnachricht oder Datei. Innerhalb von drei Tagen erhältst du eine Testversion und eine persönliche Demo.",
  },
];

export default function App() {
  const { toast } = useLoaderData<typeof loader>();
  return (
    <ToastProvider serverToast={toast}>
      <ModalProvider>
        <Outlet />
      </ModalProvider>
    </ToastProvider>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  let title = "Etwas ist schiefgelaufen";
  let details = "Ein unerwarteter Fehler ist aufgetreten. Bitte versuche es später erneut.";
  if (isRouteErrorResponse(error)) {
    if (error.status === 404) {
      title = "Seite nicht gefunden";
      details = "Die angeforderte Seite gibt es nicht.";
    } else {
      title = `Fehler ${error.status}`;
      details =
        typeof error.data === "string" && error.data ? error.data : error.statusText || details;
    }
  } else if (import.meta.env.DEV && error instanceof Error) {
    details = error.message;
  }
  return (
    <main className="mx-auto max-w-xl px-6 py-24 text-center">
      <h1 className="text-3xl font-bold">{title}</h1>
      <p className="mt-4 text-slate-600 dark:text-slate-300">{details}</p>
      <a
        href="/"
        className="mt-8 inline-block rounded-lg bg-indigo-600 px-5 py-2.5 font-semibold text-white hover:bg-indigo-700"
      >
        Zur Startseite
      </a>
    </main>
  );
}
