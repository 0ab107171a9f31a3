import { getZodConstraint } from "@conform-to/zod/v4";
import { useRef, useState } from "react";
import { data, redirect, useLoaderData } from "react-router";
import { useFrameHeight } from "~/components/embed/frame-height";
import { ContactForm } from "~/components/landing/contact-form";
import { buttonClass } from "~/components/ui/button";
import { Alert } from "~/components/ui/field";
import { ACCESSIBILITY_PATH } from "~/lib/accessibility";
import { brandedTitle } from "~/lib/branding";
import { EMBED_PATH } from "~/lib/embed";
import { privacyNoteText, withTranscriptionNote } from "~/lib/privacy-note";
import { RequestFormSchema } from "~/lib/request-form";
import { uploadLimits } from "~/lib/upload-rules";
import { bookingEnabled } from "~/server/appointments/booking-settings.server";
import { branding } from "~/server/branding/branding.server";
import { getConfiguration } from "~/server/configuration/configuration.server";
import { embedAttribution, embedFormToken, embedSentRequest } from "~/server/embed/embed.server";
import { clientIp } from "~/server/http/request-context.server";
import { requestLinkPath } from "~/server/requests/request-link.server";
import { loadRequestJson, requestsWithAppointment } from "~/server/requests/serialize.server";
import { refusedSubmission, submitRequest } from "~/server/requests/submit.server";
import { answerIfChallenge, checkView, QUESTION_FRAGMENT } from "~/server/spam/script-free.server";
import { transcriptionProcessor } from "~/server/transcription/client.server";
import type { Route } from "./+types/embed";

/**
 * GET /embed: the contact form alone, for a frame on the agency's own website (ADR 283). No header, footer, cookie bar or analytics (only the accessibility statement's link
 * under the form, ADR 340); no cookie is read or set. The form carries a
 * signed token instead (CSRF); after a no-JS post a signed "gesendet" token in the URL names the
 * request. Its CSP (`frame-ancestors 'self'` + the allowed websites) is set in server/app.ts.
 */
export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: brandedTitle("Anfrage senden", loaderData?.name) },
  { name: "robots", content: "noindex" },
];

/** Marks the frame for the root layout (no ScrollRestoration: no sessionStorage in the frame). */
export const handle = { embed: true };

export function headers() {
  return { "Cache-Control": "private, no-store" };
}

const SENT_LINK_INVALID =
  "Diese Bestätigung ist abgelaufen oder ungültig. Deine Anfrage ist davon nicht betroffen – wenn du unsicher bist, schick uns einfach eine neue.";

let constraint: ReturnType<typeof getZodConstraint> | undefined;

export function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const config = getConfiguration();
  const brand = branding();
  const sentParam = url.searchParams.get("gesendet");
  const sentId = embedSentRequest(sentParam);
  const sent = sentId ? loadRequestJson(sentId) : null;
  constraint ??= getZodConstraint(RequestFormSchema);
  const page = {
    name: brand.name,
    token: embedFormToken(),
    attribution: embedAttribution(request),
    constraint,
    limits: uploadLimits(config.uploadSettings),
    bookingEnabled: bookingEnabled(),
    privacyUrl: brand.privacyUrl,
    privacyNote: withTranscriptionNote(
      privacyNoteText(config.privacyNote, config.retention.requestMonths),
      transcriptionProcessor(),
    ),
    texts: { promise: brand.promise, successMessage: brand.successMessage },
    submitted: sent
      ? {
          id: sent.id,
          name: sent.name,
          booked: requestsWithAppointment([sent.id]).length > 0,
          bookingHref: requestLinkPath(sent.id, "termin"),
          check: checkView(sent.id, url.searchParams),
          sent: sentParam ?? undefined,
        }
      : null,
    sentInvalid: sentParam !== null && !sent,
    // The statement's link under the form while it is published (ADR 340).
    accessibility: config.accessibility.publish,
  };
  return data(page, { status: page.sentInvalid ? 400 : 200 });
}

/**
 * The no-JS post of the framed form (with JS it goes to POST /api/requests with its token), and
 * the answer to the script-free question of its thank-you page (ADR 326).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const answered = await answerIfChallenge(request, clientIp(context), EMBED_PATH);
  if (answered) return answered;
  const result = await submitRequest(request, clientIp(context), { embed: true, scriptFree: true });
  if (result.ok && result.embed) {
    const params = new URLSearchParams({ gesendet: result.embed.sentToken });
    if (result.challenge) params.set("pruefung", result.challenge);
    // The next request from this frame keeps the visit's origin (the redirect's Referer is ours).
    const { referrer, source, medium, campaign } = result.request.attribution;
    const carried = {
      ref: referrer,
      utm_source: source,
      utm_medium: medium,
      utm_campaign: campaign,
    };
    for (const [name, value] of Object.entries(carried)) if (value) params.set(name, value);
    return redirect(`${EMBED_PATH}?${params}${result.challenge ? QUESTION_FRAGMENT : "#contact"}`, {
      status: 303,
    });
  }
  if (result.ok) throw new Error("embed: a submission without its token was accepted");
  return refusedSubmission(result);
}

export default function Embed({ actionData }: Route.ComponentProps) {
  const page = useLoaderData<typeof loader>();
  const mainRef = useRef<HTMLElement>(null);
  useFrameHeight(mainRef);
  // The host page as referrer comes with the document (a data request's Referer is our own page).
  const [attribution] = useState(page.attribution);
  return (
    <main ref={mainRef} className="pt-4">
      {/* In the content column of the form below. */}
      <div className="px-4 sm:px-6">
        <div className="mx-auto max-w-3xl">
          <h1 className="text-sm font-semibold text-slate-700 dark:text-slate-300">{page.name}</h1>
          {page.sentInvalid ? (
            <div className="pt-4">
              <Alert>{SENT_LINK_INVALID}</Alert>
            </div>
          ) : null}
        </div>
      </div>
      <ContactForm
        refused={actionData}
        constraint={page.constraint}
        limits={page.limits}
        affiliateCode={null}
        submitted={page.submitted}
        bookingEnabled={page.bookingEnabled}
        privacyNote={{ text: page.privacyNote, url: page.privacyUrl }}
        brandTexts={page.texts}
        embed={{ token: page.token, attribution }}
      />
      {page.accessibility ? (
        // Outside the frame: a new tab, so the form (and what is typed in it) stays.
        <p className="px-4 pb-6 text-center text-sm text-slate-600 sm:px-6 dark:text-slate-400">
          <a
            href={ACCESSIBILITY_PATH}
            target="_blank"
            rel="noopener"
            className="underline underline-offset-2"
          >
            Erklärung zur Barrierefreiheit
            <span className="sr-only"> (öffnet in neuem Tab)</span>
          </a>
        </p>
      ) : null}
    </main>
  );
}

export function ErrorBoundary() {
  return (
    <main className="px-4 py-8 text-center">
      <h1 className="text-xl font-bold">Das Formular konnte nicht geladen werden</h1>
      <p className="mt-2">Bitte versuche es später noch einmal.</p>
      <a href="/" target="_top" className={`${buttonClass("primary", "sm")} mt-4`}>
        Zur Startseite
      </a>
    </main>
  );
}
