import { useFetcher, useLocation } from "react-router";
import { buttonClass } from "~/components/ui/button";

type Consent = { analytics: boolean; marketing: boolean };

declare global {
  interface Window {
    gtag?: (...args: unknown[]) => void;
  }
}

/** Tells Google Analytics (when loaded) about the visitor's choice. */
export function updateAnalyticsConsent(consent: Consent) {
  window.gtag?.("consent", "update", {
    analytics_storage: consent.analytics ? "granted" : "denied",
    ad_storage: consent.marketing ? "granted" : "denied",
    ad_user_data: consent.marketing ? "granted" : "denied",
    ad_personalization: consent.marketing ? "granted" : "denied",
  });
}

/** The consent bar; shown until a choice is stored (cookie). Works as plain form posts without JS. */
export function CookieBar({ current }: { current: Consent | null }) {
  const fetcher = useFetcher();
  const location = useLocation();
  if (fetcher.state !== "idle" || fetcher.data) return null;
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
        className="mx-auto max-w-6xl px-4 py-4 sm:px-6"
        onSubmit={(event) => {
          event.preventDefault();
          const submitter = (event.nativeEvent as SubmitEvent)
            .submitter as HTMLButtonElement | null;
          const form = new FormData(event.currentTarget, submitter);
          const choice = form.get("choice");
          const analytics =
            choice === "all" || (choice === "custom" && form.get("analytics") === "on");
          updateAnalyticsConsent({ analytics, marketing: choice === "all" });
          form.set("js", "1");
          fetcher.submit(form, { method: "post", action: "/preferences/consent" });
        }}
      >
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <p className="text-sm text-slate-700 dark:text-slate-300">
          Wir verwenden notwendige Cookies, damit diese Seite funktioniert (z. B. für deine
          Einstellungen und deine Anfragen). Mit deiner Zustimmung nutzen wir zusätzlich
          Analyse-Cookies, um die Seite zu verbessern.
        </p>
        <details className="mt-2 text-sm">
          <summary className="cursor-pointer rounded font-semibold text-indigo-700 dark:text-indigo-300">
            Details
          </summary>
          <div className="mt-2 space-y-2">
            <label className="flex items-start gap-2">
              <input type="checkbox" checked disabled className="mt-1" />
              <span>
                <strong>Notwendig</strong> (immer aktiv): Design, Cookie-Auswahl, deine gesendeten
                Anfragen.
              </span>
            </label>
            <label className="flex items-start gap-2">
              <input
                type="checkbox"
                name="analytics"
                defaultChecked={current?.analytics ?? false}
                className="mt-1"
              />
              <span>
                <strong>Analyse</strong> (optional): anonymisierte Nutzungsstatistik mit Google
                Analytics, Speicherdauer ein Jahr.
              </span>
            </label>
            <button
              type="submit"
              name="choice"
              value="custom"
              className={buttonClass("secondary", "sm")}
            >
              Auswahl speichern
            </button>
          </div>
        </details>
        <div className="mt-3 flex flex-wrap justify-end gap-2">
          <button
            type="submit"
            name="choice"
            value="necessary"
            className={buttonClass("secondary", "sm")}
          >
            Nur notwendige
          </button>
          <button type="submit" name="choice" value="all" className={buttonClass("primary", "sm")}>
            Alle akzeptieren
          </button>
        </div>
      </fetcher.Form>
    </section>
  );
}

/** Google Analytics with consent mode (default denied), anonymised IP, one-year cookie. */
export function Analytics({
  measurementId,
  consent,
  nonce,
}: {
  measurementId: string;
  consent: Consent | null;
  nonce?: string;
}) {
  const granted = (v: boolean | undefined) => (v ? "granted" : "denied");
  const init = `window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments);}window.gtag=gtag;
gtag('consent','default',{analytics_storage:'denied',ad_storage:'denied',ad_user_data:'denied',ad_personalization:'denied'});
gtag('consent','update',{analytics_storage:'${granted(consent?.analytics)}',ad_storage:'${granted(consent?.marketing)}',ad_user_data:'${granted(consent?.marketing)}',ad_personalization:'${granted(consent?.marketing)}'});
gtag('js',new Date());gtag('config',${JSON.stringify(measurementId)},{anonymize_ip:true,cookie_expires:31536000});`;
  return (
    <>
      <script
        nonce={nonce}
        suppressHydrationWarning
        // biome-ignore lint/security/noDangerouslySetInnerHtml: fixed snippet; the only value is JSON-encoded
        dangerouslySetInnerHTML={{ __html: init }}
      />
      <script
        async
        nonce={nonce}
        suppressHydrationWarning
        src={`https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(measurementId)}`}
      />
    </>
  );
}
