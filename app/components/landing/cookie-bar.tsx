import { type ReactNode, useEffect, useState } from "react";
import { useFetcher, useLocation } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { GTAG_ORIGIN } from "~/lib/analytics";
import { AttributionFields } from "./attribution-fields";

type Consent = { analytics: boolean; marketing: boolean };

declare global {
  interface Window {
    gtag?: (...args: unknown[]) => void;
  }
}

/**
 * The signals sent to Google: analytics as chosen; the advertising signals stay denied whatever the
 * stored `marketing` flag says (the bar asks about analytics only, and the page shows no ads).
 */
function consentSignals(consent: Pick<Consent, "analytics">) {
  return {
    analytics_storage: consent.analytics ? "granted" : "denied",
    ad_storage: "denied",
    ad_user_data: "denied",
    ad_personalization: "denied",
  };
}

/** Tells Google Analytics (when loaded) about the visitor's choice. */
export function updateAnalyticsConsent(consent: Consent) {
  window.gtag?.("consent", "update", consentSignals(consent));
}

/** The consent bar; shown until a choice is stored (cookie). Works as plain form posts without JS. */
export function CookieBar({ current }: { current: Consent | null }) {
  const fetcher = useFetcher();
  const location = useLocation();
  // Closed once the choice is stored (the cookie is set by then) until the next navigation; the
  // footer link opens it again.
  const [closedAt, setClosedAt] = useState<string | null>(null);
  if (closedAt === location.key && fetcher.state === "idle") return null;
  const redirectTo = `${location.pathname}${location.search.replace(/[?&]cookies=1/, "")}`;
  return (
    <section
      id="cookie-consent"
      aria-label="Cookie-Einstellungen"
      className="fixed inset-x-0 bottom-0 z-40 border-t border-slate-200 bg-white/95 shadow-2xl backdrop-blur dark:border-slate-800 dark:bg-slate-900/95"
    >
      <fetcher.Form
        method="post"
        action="/preferences/consent"
        className="mx-auto max-w-6xl px-4 py-2 sm:px-6 sm:py-4"
        onSubmit={(event) => {
          event.preventDefault();
          const submitter = (event.nativeEvent as SubmitEvent)
            .submitter as HTMLButtonElement | null;
          const form = new FormData(event.currentTarget, submitter);
          const choice = form.get("choice");
          const analytics =
            choice === "all" || (choice === "custom" && form.get("analytics") === "on");
          updateAnalyticsConsent({ analytics, marketing: choice === "all" });
          setClosedAt(location.key);
          form.set("js", "1");
          fetcher.submit(form, { method: "post", action: "/preferences/consent" });
        }}
      >
        <input type="hidden" name="redirectTo" value={redirectTo} />
        {/* The landing document's attribution: remembered as the first touch on consent, its
            referrer carried across the no-JS redirect otherwise (ADR 215). */}
        <AttributionFields />
        {/* Compact on phones: banner + header + this bar take at most a quarter of the screen. */}
        <p className="text-xs text-slate-700 sm:hidden dark:text-slate-300">
          Notwendige Cookies immer, Analyse nur mit deiner Zustimmung.
        </p>
        <p className="hidden text-sm text-slate-700 sm:block dark:text-slate-300">
          Wir verwenden notwendige Cookies, damit diese Seite funktioniert (z. B. für deine
          Einstellungen und deine Anfragen). Mit deiner Zustimmung nutzen wir zusätzlich
          Analyse-Cookies, um die Seite zu verbessern.
        </p>
        {/* Phones (320–430 px): "Details" on its own line, its panel full width, then the two
            buttons side by side in equal halves. From sm on: "Details" left, buttons right; the
            opened panel takes the whole row and the buttons wrap below it. Never clipped. */}
        <div className="mt-1.5 flex flex-col gap-1.5 sm:mt-3 sm:flex-row sm:flex-wrap sm:items-start sm:gap-x-4 sm:gap-y-3">
          <details className="min-w-0 text-sm sm:flex-1 sm:open:basis-full">
            <summary className="inline-block cursor-pointer rounded py-0.5 font-semibold text-indigo-700 dark:text-indigo-300">
              Details
            </summary>
            <div className="mt-2 space-y-2 text-slate-700 dark:text-slate-300">
              <label className="flex items-start gap-2">
                <input type="checkbox" checked disabled className="mt-1 shrink-0" />
                <span className="min-w-0">
                  <strong>Notwendig</strong> (immer aktiv): Design, Cookie-Auswahl, deine gesendeten
                  Anfragen.
                </span>
              </label>
              <label className="flex items-start gap-2">
                <input
                  type="checkbox"
                  name="analytics"
                  defaultChecked={current?.analytics ?? false}
                  className="mt-1 shrink-0"
                />
                <span className="min-w-0">
                  <strong>Analyse</strong> (optional): anonymisierte Nutzungsstatistik mit Google
                  Analytics, Speicherdauer ein Jahr.
                </span>
              </label>
              <ChoiceButton value="custom" variant="secondary">
                Auswahl speichern
              </ChoiceButton>
            </div>
          </details>
          <div className="grid grid-cols-2 gap-2 sm:ml-auto sm:flex sm:shrink-0">
            <ChoiceButton value="necessary" variant="secondary">
              Nur notwendige
            </ChoiceButton>
            <ChoiceButton value="all" variant="primary">
              Alle akzeptieren
            </ChoiceButton>
          </div>
        </div>
      </fetcher.Form>
    </section>
  );
}

/** One of the bar's submit buttons: posts its choice under the one name `choice`. */
function ChoiceButton({
  value,
  variant,
  children,
}: {
  value: "custom" | "necessary" | "all";
  variant: "primary" | "secondary";
  children: ReactNode;
}) {
  return (
    <button
      type="submit"
      name="choice"
      value={value}
      className={`${buttonClass(variant, "sm")} min-w-0 text-center max-sm:px-2`}
    >
      {children}
    </button>
  );
}

/**
 * Google Analytics, rendered only after the visitor consented (nothing is requested from Google
 * before): anonymised IP, one-year cookie. Server-rendered on pages loaded with consent; when the
 * consent is given with JS on this page, the effect starts it (a client-inserted inline script
 * would not run).
 */
export function Analytics({
  measurementId,
  consent,
  nonce,
}: {
  measurementId: string;
  consent: Consent;
  nonce?: string;
}) {
  const settings = `{${Object.entries(consentSignals(consent))
    .map(([key, value]) => `${key}:'${value}'`)
    .join(",")}}`;
  const init = `window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments);}window.gtag=gtag;
gtag('consent','default',${settings});
gtag('js',new Date());gtag('config',${JSON.stringify(measurementId)},{anonymize_ip:true,cookie_expires:31536000});`;
  const src = `${GTAG_ORIGIN}/gtag/js?id=${encodeURIComponent(measurementId)}`;
  useEffect(() => {
    if (window.gtag) return;
    const w = window as unknown as { dataLayer: unknown[] };
    w.dataLayer = w.dataLayer || [];
    window.gtag = function gtag() {
      // biome-ignore lint/complexity/noArguments: gtag.js reads the arguments object itself
      w.dataLayer.push(arguments);
    };
    updateAnalyticsConsent(consent);
    window.gtag("js", new Date());
    window.gtag("config", measurementId, { anonymize_ip: true, cookie_expires: 31536000 });
    if (document.querySelector(`script[src="${src}"]`)) return;
    const script = document.createElement("script");
    script.async = true;
    script.src = src;
    if (nonce) script.nonce = nonce;
    document.head.append(script);
  }, [measurementId, consent, nonce, src]);
  return (
    <>
      <script
        nonce={nonce}
        suppressHydrationWarning
        // biome-ignore lint/security/noDangerouslySetInnerHtml: fixed snippet; the only value is JSON-encoded
        dangerouslySetInnerHTML={{ __html: init }}
      />
      <script async nonce={nonce} suppressHydrationWarning src={src} />
    </>
  );
}
