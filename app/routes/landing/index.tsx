import { getZodConstraint } from "@conform-to/zod/v4";
import { data, redirect, useLoaderData, useRouteLoaderData } from "react-router";
import type { Hydration } from "~/components/app-scripts";
import { ContactForm } from "~/components/landing/contact-form";
import { Analytics, CookieBar } from "~/components/landing/cookie-bar";
import { Faq } from "~/components/landing/faq";
import { Features } from "~/components/landing/features";
import { Footer } from "~/components/landing/footer";
import { Header } from "~/components/landing/header";
import { Hero } from "~/components/landing/hero";
import { History } from "~/components/landing/history";
import { InfoBanner } from "~/components/landing/info-banner";
import { useNonce } from "~/components/nonce";
import { bannerKey } from "~/lib/banner-key";
import type { ThemeChoice } from "~/lib/brand";
import { landingDescription, landingTitle } from "~/lib/branding";
import { formatYear } from "~/lib/format";
import { privacyNoteText, withTranscriptionNote } from "~/lib/privacy-note";
import { RequestFormSchema } from "~/lib/request-form";
import { uploadLimits } from "~/lib/upload-rules";
import { checkAffiliateCode } from "~/server/affiliates.server";
import { bookingEnabled } from "~/server/appointments/booking-settings.server";
import { visitorAppointments } from "~/server/appointments/visitor.server";
import { branding } from "~/server/branding/branding.server";
import { getConfiguration } from "~/server/configuration/configuration.server";
import { clientIp } from "~/server/http/request-context.server";
import { env } from "~/server/platform/env.server";
import type { RenderCacheRule } from "~/server/rendering/render-cache.server";
import { loadRequestsJson, requestsWithAppointment } from "~/server/requests/serialize.server";
import { refusedSubmission, submitRequest } from "~/server/requests/submit.server";
import { answerIfChallenge, checkView, QUESTION_FRAGMENT } from "~/server/spam/script-free.server";
import { transcriptionProcessor } from "~/server/transcription/client.server";
import { landingAttribution } from "~/server/visitors/attribution.server";
import { consentNeeded, visitorFooter } from "~/server/visitors/footer.server";
import { readConsent, readDismissedBanners } from "~/server/visitors/preferences.server";
import { getVisitorRequestIds } from "~/server/visitors/visitor.server";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: landingTitle(loaderData?.texts) },
  { name: "description", content: landingDescription(loaderData?.texts) },
];

/**
 * Served from the render cache when nothing it renders changed (app/server/rendering/render-cache.server.ts).
 * Every flow here works without JavaScript: it loads on the visitor's first interaction (ADR 170).
 */
export const handle = {
  // Never a page with the visitor's own requests: erased data must not stay in memory (ADR 100).
  renderCache: (page: LandingData) => page.history.length === 0 && page.submitted === null,
  hydration: "interaction",
} satisfies { renderCache: RenderCacheRule; hydration: Hydration };

type LandingData = { history: unknown[]; submitted: unknown };

/** The form's HTML constraints (required, maxLength, ...) never change: computed once. */
let constraint: ReturnType<typeof getZodConstraint> | undefined;
const formConstraint = () => {
  constraint ??= getZodConstraint(RequestFormSchema);
  return constraint;
};

/** A page with the visitor's own requests is theirs alone (ADR 324): the loader says so. */
export function headers({ loaderHeaders }: Route.HeadersArgs) {
  const cacheControl = loaderHeaders.get("Cache-Control");
  return cacheControl ? { "Cache-Control": cacheControl } : new Headers();
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const config = getConfiguration();
  const [consent, dismissed, ids] = await Promise.all([
    readConsent(request),
    readDismissedBanners(request),
    getVisitorRequestIds(request),
  ]);
  const bannerText = config.infoBanner.text.trim();
  const key = bannerKey(bannerText);
  const code = url.searchParams.get("code");
  // Counted per client (ADR 322); past the limit the page shows no discount.
  const checked = code ? await checkAffiliateCode(code, clientIp(context)) : null;
  const affiliate = checked?.ok ? checked : null;
  const history = loadRequestsJson(ids);
  const booked = visitorAppointments(history.map((r) => r.id));
  const sentId = Number(url.searchParams.get("gesendet"));
  const sent = ids.includes(sentId) ? history.find((r) => r.id === sentId) : undefined;
  // Arrived through the signed link of the receipt (ADR 220): the history says so in place.
  const openedId = Number(url.searchParams.get("geoeffnet"));
  const { GA_MEASUREMENT_ID } = env();
  const brand = branding();
  const year = formatYear(Date.now());
  // Per request (never cached): rendered into hidden fields of the contact form.
  const attribution = await landingAttribution(request, consent);
  const headers = new Headers();
  if (attribution.setCookie) headers.set("Set-Cookie", attribution.setCookie);
  const page = {
    attribution: attribution.attribution,
    banner:
      config.infoBanner.enabled && bannerText && !dismissed.includes(key)
        ? { text: bannerText, key }
        : null,
    affiliate:
      affiliate?.valid && affiliate.code
        ? { code: affiliate.code, discountValue: affiliate.discountValue }
        : null,
    consent,
    // Only analytics need consent: without them there is no bar to show (ADR 343).
    showConsent: consentNeeded() && (!consent || url.searchParams.get("cookies") === "1"),
    constraint: formConstraint(),
    limits: uploadLimits(config.uploadSettings),
    history: history.map((r) => ({
      id: r.id,
      name: r.name,
      description: r.description,
      summary: r.summary,
      companyDescription: r.companyDescription,
      status: r.status,
      createdAt: r.createdAt,
      audioPath: r.audioPath,
      attachments: r.attachments.map((a) => ({
        id: a.id,
        originalName: a.originalName,
        size: a.size,
      })),
      appointment: booked.get(r.id) ?? null,
    })),
    submitted: sent
      ? {
          id: sent.id,
          name: sent.name,
          booked: requestsWithAppointment([sent.id]).length > 0,
          appointment: booked.get(sent.id) ?? null,
          // Sent without proof of work: the script-free question or its outcome (ADR 326).
          check: checkView(sent.id, url.searchParams),
        }
      : null,
    openedId: ids.includes(openedId) ? openedId : null,
    bookingEnabled: bookingEnabled(),
    privacyUrl: brand.privacyUrl,
    privacyNote: withTranscriptionNote(
      privacyNoteText(config.privacyNote, config.retention.requestMonths),
      transcriptionProcessor(),
    ),
    imprintUrl: brand.imprintUrl,
    year,
    footer: visitorFooter(),
    // The agency's words (ADR 268): stored texts or today's; part of the render cache's key.
    texts: {
      name: brand.name,
      heroTitle: brand.heroTitle,
      heroSubtitle: brand.heroSubtitle,
      promise: brand.promise,
      successMessage: brand.successMessage,
      faq: brand.faq,
      // The title and description follow the promises like the default texts (ADR 346).
      promises: config.pipeline.promises,
    },
    gaMeasurementId: GA_MEASUREMENT_ID ?? null,
  };
  // The visitor's own requests (or the one just sent) on the page: never kept by a shared cache.
  if (page.history.length || page.submitted || page.openedId)
    headers.set("Cache-Control", "private, no-store");
  return data(page, { headers });
}

/**
 * The no-JS submission (the JS form posts the same data to POST /api/requests), and the answer to
 * the script-free question its thank-you page may ask (ADR 326).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const answered = await answerIfChallenge(request, clientIp(context), "/");
  if (answered) return answered;
  const result = await submitRequest(request, clientIp(context), { scriptFree: true });
  if (result.ok) {
    const params = new URLSearchParams({ gesendet: String(result.request.id) });
    if (result.request.affiliateCode) params.set("code", result.request.affiliateCode);
    if (result.challenge) params.set("pruefung", result.challenge);
    const headers = new Headers();
    if (result.setCookie) headers.append("Set-Cookie", result.setCookie);
    if (result.toastCookie) headers.append("Set-Cookie", result.toastCookie);
    return redirect(`/?${params}${result.challenge ? QUESTION_FRAGMENT : "#contact"}`, {
      status: 303,
      headers,
    });
  }
  return refusedSubmission(result);
}

export default function Landing({ actionData }: Route.ComponentProps) {
  const page = useLoaderData<typeof loader>();
  const root = useRouteLoaderData("root") as { theme?: ThemeChoice } | undefined;
  const nonce = useNonce();
  return (
    <>
      {page.banner ? <InfoBanner text={page.banner.text} bannerKey={page.banner.key} /> : null}
      <Header theme={root?.theme ?? "system"} hasHistory={page.history.length > 0} />
      <main>
        <Hero
          affiliate={page.affiliate}
          title={page.texts.heroTitle}
          subtitle={page.texts.heroSubtitle}
        />
        <Features />
        <ContactForm
          refused={actionData}
          constraint={page.constraint}
          limits={page.limits}
          affiliateCode={page.affiliate?.code ?? null}
          submitted={page.submitted}
          bookingEnabled={page.bookingEnabled}
          privacyNote={{ text: page.privacyNote, url: page.privacyUrl }}
          brandTexts={page.texts}
        />
        <History
          items={page.history}
          openedId={page.openedId}
          privacyUrl={page.privacyUrl}
          bookingEnabled={page.bookingEnabled}
        />
        <Faq entries={page.texts.faq} />
      </main>
      <Footer {...page.footer} barBelow={page.showConsent} />
      {page.showConsent ? <CookieBar current={page.consent} /> : null}
      {page.gaMeasurementId && page.consent?.analytics ? (
        <Analytics measurementId={page.gaMeasurementId} consent={page.consent} nonce={nonce} />
      ) : null}
    </>
  );
}
