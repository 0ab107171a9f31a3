import type { SubmissionResult } from "@conform-to/react";
import { type ReactNode, useLayoutEffect, useRef } from "react";
import { Form, useLocation, useNavigation } from "react-router";
import { CopyButton } from "~/components/admin/requests/copy-button";
import { Button } from "~/components/ui/button";
import { Alert } from "~/components/ui/field";
import { FocusOnArrival } from "~/components/ui/focus-on-arrival";
import { ConformForm, Field, useConformForm } from "~/components/ui/form";
import {
  RecoveryCodesSchema,
  TWO_FACTOR_MESSAGES,
  TwoFactorDisableSchema,
  TwoFactorEnableSchema,
  TwoFactorSetupSchema,
} from "~/lib/two-factor";
import { AccountSection } from "./account-section";

export type SecurityStatus = {
  enabled: boolean;
  pending: { secret: string; otpauthUrl: string; qrSvg: string } | null;
  recoveryCodesLeft: number;
  enrollmentRequired: boolean;
  requireForAll: boolean;
};

type Reply = {
  intent: string;
  result?: SubmissionResult<string[]>;
  message?: string;
  error?: string;
  recoveryCodes?: string[];
};

/**
 * "Sicherheit" on /admin/account (ADR 256): the second factor. Off → password → QR code
 * (server-rendered SVG) and the secret as text → a code confirms → 10 recovery codes, shown once.
 * On → new recovery codes (password or code), switch off (password and code). Below, the rule for
 * every admin. Each step is a plain form post, so all of it works without JavaScript.
 */
export function SecuritySection({
  status,
  reply,
  children,
}: {
  status: SecurityStatus;
  reply?: Reply;
  /** Further parts of the section (the admin's sessions). */
  children?: ReactNode;
}) {
  const resultOf = (intent: string) => (reply?.intent === intent ? reply.result : undefined);
  const refused = Boolean(reply?.error || Object.keys(reply?.result?.error ?? {}).length);
  // The step a successful post leads to takes the focus: the QR code step, the recovery codes.
  const setupDone = reply?.intent === "2fa-setup" && !refused && status.pending ? reply : undefined;
  // After switching on, the answer already says "eingeschaltet": the status line does not repeat it.
  const justEnabled = reply?.intent === "2fa-enable" && Boolean(reply.recoveryCodes);
  return (
    <AccountSection
      id="sicherheit"
      title="Sicherheit"
      description="Zwei-Faktor-Anmeldung: Nach dem Passwort fragt die Anmeldung nach einem Code aus einer Authenticator-App (z. B. Google Authenticator, Microsoft Authenticator, 1Password)."
    >
      {status.enrollmentRequired ? (
        <Alert tone="warning">{TWO_FACTOR_MESSAGES.enrollmentNotice}</Alert>
      ) : null}
      {reply?.message || reply?.error || reply?.recoveryCodes ? (
        <FocusOnArrival arrival={reply} className="space-y-4">
          {reply.message ? <Alert tone="success">{reply.message}</Alert> : null}
          {reply.error ? <Alert>{reply.error}</Alert> : null}
          {reply.recoveryCodes ? <RecoveryCodes codes={reply.recoveryCodes} /> : null}
        </FocusOnArrival>
      ) : null}
      {status.enabled ? (
        <>
          <p className="text-sm">
            {justEnabled ? null : (
              <>
                <strong>Die Zwei-Faktor-Anmeldung ist eingeschaltet.</strong>{" "}
              </>
            )}
            Unbenutzte Wiederherstellungscodes: {status.recoveryCodesLeft} von 10.
          </p>
          <RegenerateForm result={resultOf("2fa-recovery-codes")} />
          <DisableForm result={resultOf("2fa-disable")} />
        </>
      ) : status.pending ? (
        <FocusOnArrival arrival={setupDone}>
          <EnrolForm pending={status.pending} result={resultOf("2fa-enable")} />
        </FocusOnArrival>
      ) : (
        <SetupForm
          result={resultOf("2fa-setup")}
          label="Zwei-Faktor-Anmeldung einrichten"
          anchor="zwei-faktor-einrichten"
        />
      )}
      {status.pending && !status.enabled ? (
        <details className="text-sm" open={Boolean(resultOf("2fa-setup"))}>
          <summary className="cursor-pointer font-medium">Mit neuem Schlüssel neu beginnen</summary>
          <div className="mt-3">
            <SetupForm
              result={resultOf("2fa-setup")}
              label="Neuen Schlüssel erzeugen"
              anchor="zwei-faktor-neu-beginnen"
            />
          </div>
        </details>
      ) : null}
      <RequireForAllForm
        on={status.requireForAll}
        answer={reply?.intent === "2fa-require" ? reply : undefined}
      />
      {children}
    </AccountSection>
  );
}

function useSubmitting() {
  return useNavigation().state === "submitting";
}

type FormMeta = Parameters<typeof ConformForm>[0]["form"];
type FieldMeta = Parameters<typeof Field>[0]["meta"];

/**
 * A 2FA form: Conform's form posting its `intent`. With JavaScript Conform focuses the first field
 * of a refused post; without it the post goes to `#anchor`, the form's own block, so the reloaded
 * page opens at the form and its error instead of at the top. The anchor exists only while the
 * form is shown: after a successful step it is gone, and the next step's autofocus applies.
 */
function IntentForm({
  form,
  intent,
  anchor,
  children,
}: {
  form: FormMeta;
  intent: string;
  anchor?: string;
  children: ReactNode;
}) {
  return (
    <div id={anchor} className="scroll-mt-24">
      <ConformForm form={form} action={anchor ? `/admin/account#${anchor}` : undefined}>
        <input type="hidden" name="intent" value={intent} />
        {children}
      </ConformForm>
    </div>
  );
}

/** "Aktuelles Passwort", asked before a 2FA change. */
function CurrentPassword({
  meta,
  required,
  hint,
}: {
  meta: FieldMeta;
  required?: boolean;
  hint?: string;
}) {
  return (
    <Field
      meta={meta}
      label="Aktuelles Passwort"
      type="password"
      autoComplete="current-password"
      required={required}
      hint={hint}
    />
  );
}

/** A rarely needed form, folded away until opened. */
function Folded({
  summary,
  open,
  children,
}: {
  summary: string;
  open?: boolean;
  children: ReactNode;
}) {
  return (
    <details className="text-sm" open={open}>
      <summary className="cursor-pointer font-medium">{summary}</summary>
      <div className="mt-3">{children}</div>
    </details>
  );
}

function SetupForm({
  result,
  label,
  anchor,
}: {
  result?: SubmissionResult<string[]>;
  label: string;
  anchor: string;
}) {
  const [form, fields] = useConformForm(TwoFactorSetupSchema, result, { id: "2fa-setup" });
  return (
    <IntentForm form={form} intent="2fa-setup" anchor={anchor}>
      <CurrentPassword meta={fields.password} required hint="Zur Bestätigung, dass Sie es sind." />
      <Button type="submit" disabled={useSubmitting()}>
        {label}
      </Button>
    </IntentForm>
  );
}

function EnrolForm({
  pending,
  result,
}: {
  pending: NonNullable<SecurityStatus["pending"]>;
  result?: SubmissionResult<string[]>;
}) {
  const [form, fields] = useConformForm(TwoFactorEnableSchema, result, { id: "2fa-enable" });
  return (
    <div className="space-y-4">
      <ol className="list-decimal space-y-1 pl-5 text-sm">
        <li>Scannen Sie den QR-Code mit Ihrer Authenticator-App.</li>
        <li>Oder geben Sie den Schlüssel unten von Hand ein.</li>
        <li>Bestätigen Sie mit dem sechsstelligen Code, den die App anzeigt.</li>
      </ol>
      <div
        role="img"
        aria-label="QR-Code für die Authenticator-App"
        className="size-48 rounded-lg border border-slate-200 bg-white p-1 dark:border-slate-700"
        // The SVG is made on the server by `qrcode` from the otpauth URL (no user input in it).
        // biome-ignore lint/security/noDangerouslySetInnerHtml: server-rendered QR code SVG
        dangerouslySetInnerHTML={{ __html: pending.qrSvg }}
      />
      <p className="text-sm">
        Schlüssel zur manuellen Eingabe:{" "}
        <code
          data-testid="totp-secret"
          className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-sm dark:bg-slate-800"
        >
          {/* Groups of four to read and type; copied, the text is the key itself (no spaces). */}
          {groupsOfFour(pending.secret).map(({ at, group }) => (
            <span key={at}>
              {at > 0 ? <wbr /> : null}
              <span className={at > 0 ? "ml-[0.5ch]" : undefined}>{group}</span>
            </span>
          ))}
        </code>
      </p>
      <IntentForm form={form} intent="2fa-enable" anchor="zwei-faktor-bestaetigen">
        <Field
          meta={fields.code}
          label="Code aus der App"
          autoComplete="one-time-code"
          inputMode="numeric"
          required
        />
        <Button type="submit" disabled={useSubmitting()}>
          Bestätigen und einschalten
        </Button>
      </IntentForm>
    </div>
  );
}

function groupsOfFour(text: string) {
  return Array.from({ length: Math.ceil(text.length / 4) }, (_, k) => ({
    at: k * 4,
    group: text.slice(k * 4, k * 4 + 4),
  }));
}

function RecoveryCodes({ codes }: { codes: string[] }) {
  const text = codes.join("\n");
  return (
    <div className="space-y-3 rounded-lg border border-amber-300 bg-amber-50 p-4 dark:border-amber-800 dark:bg-amber-950">
      <h3 className="font-semibold">Ihre Wiederherstellungscodes</h3>
      <p className="text-sm">
        Jeder Code funktioniert einmal, falls Sie keinen Zugriff auf Ihre Authenticator-App haben.
        Speichern oder drucken Sie die Codes jetzt – sie werden nur dieses eine Mal angezeigt.
      </p>
      <ul
        aria-label="Wiederherstellungscodes"
        className="grid grid-cols-2 gap-2 font-mono text-sm sm:grid-cols-3"
      >
        {codes.map((code) => (
          <li
            key={code}
            className="whitespace-nowrap rounded bg-white px-1 py-1 text-center dark:bg-slate-900"
          >
            {code}
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap items-center gap-3">
        <a
          href={`data:text/plain;charset=utf-8,${encodeURIComponent(`${text}\n`)}`}
          download="wiederherstellungscodes.txt"
          className="text-sm font-medium text-indigo-700 underline hover:no-underline dark:text-indigo-300"
        >
          Codes herunterladen
        </a>
        <CopyButton
          text={codes.join(" ")}
          label="Codes kopieren"
          success="Wiederherstellungscodes in die Zwischenablage kopiert!"
        />
      </div>
    </div>
  );
}

function RegenerateForm({ result }: { result?: SubmissionResult<string[]> }) {
  const [form, fields] = useConformForm(RecoveryCodesSchema, result, {
    id: "2fa-recovery-codes",
  });
  return (
    <Folded summary="Neue Wiederherstellungscodes erzeugen" open={Boolean(result)}>
      <IntentForm form={form} intent="2fa-recovery-codes">
        <p>Bestätigen Sie mit Ihrem Passwort oder einem aktuellen Code aus der App.</p>
        <CurrentPassword meta={fields.password} />
        <Field
          meta={fields.code}
          label="Oder: Code aus der App"
          autoComplete="one-time-code"
          inputMode="numeric"
        />
        <Button type="submit" variant="secondary" disabled={useSubmitting()}>
          Neue Codes erzeugen
        </Button>
      </IntentForm>
    </Folded>
  );
}

function DisableForm({ result }: { result?: SubmissionResult<string[]> }) {
  const [form, fields] = useConformForm(TwoFactorDisableSchema, result, { id: "2fa-disable" });
  return (
    <Folded summary="Zwei-Faktor-Anmeldung ausschalten" open={Boolean(result)}>
      <IntentForm form={form} intent="2fa-disable" anchor="zwei-faktor-ausschalten">
        <CurrentPassword meta={fields.password} required />
        <Field
          meta={fields.code}
          label="Code aus der App oder Wiederherstellungscode"
          autoComplete="one-time-code"
          required
        />
        <Button type="submit" variant="danger" disabled={useSubmitting()}>
          Ausschalten
        </Button>
      </IntentForm>
    </Folded>
  );
}

function RequireForAllForm({ on, answer }: { on: boolean; answer?: Reply }) {
  const box = useRef<HTMLInputElement>(null);
  // A refused save leaves `on` as it was: each answer (a reply, or a redirect with a new location
  // — the held admin's refusal) shows the stored rule again, not the unticked box.
  const location = useLocation().key;
  // In the commit that shows the answer, before the page is painted: a passive effect could run
  // frames later, after the admin (or a test) had ticked the box again, and untick it.
  useLayoutEffect(() => {
    if (answer && box.current) box.current.checked = on;
  }, [answer, on]);
  return (
    <Form
      method="post"
      id="zwei-faktor-regel"
      className="scroll-mt-24 space-y-3 border-t border-slate-200 pt-4 dark:border-slate-700"
    >
      <input type="hidden" name="intent" value="2fa-require" />
      <h3 className="font-semibold">Für alle Admins</h3>
      <label className="flex items-start gap-2 text-sm">
        <input
          type="checkbox"
          ref={box}
          name="requireTwoFactor"
          defaultChecked={on}
          key={`${on}-${location}`}
          className="mt-0.5 size-4"
        />
        <span>
          Zwei-Faktor-Anmeldung für alle Admins verlangen
          <span className="block text-xs text-slate-500 dark:text-slate-400">
            Admins ohne zweiten Faktor werden nach dem Passwort zur Einrichtung geführt.
          </span>
        </span>
      </label>
      <Button type="submit" variant="secondary" size="sm" disabled={useSubmitting()}>
        Regel speichern
      </Button>
    </Form>
  );
}
