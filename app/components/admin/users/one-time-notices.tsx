import { CopyButton } from "~/components/admin/requests/copy-button";
import { Alert } from "~/components/ui/field";

/** Credentials of a directly activated admin (shown only in this answer). */
export function ActivatedCredentials({
  adminData,
  mailed,
}: {
  adminData: { username: string; password: string; email: string };
  /** With SMTP a mail with a link to set their own password went to them. */
  mailed: boolean;
}) {
  return (
    <Alert tone="warning">
      <p className="font-semibold">Zugangsdaten (werden nur jetzt angezeigt):</p>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
        <dt>Benutzername</dt>
        <dd className="font-mono" data-testid="activated-username">
          {adminData.username}
        </dd>
        <dt>Passwort</dt>
        <dd className="font-mono break-all" data-testid="activated-password">
          {adminData.password}
        </dd>
      </dl>
      {mailed ? (
        <p className="mt-2">
          {adminData.email} hat eine E-Mail mit einem Link zum Festlegen eines eigenen Passworts
          erhalten (das Passwort steht nicht in der E-Mail).
        </p>
      ) : (
        <p className="mt-2">
          Es wurde keine E-Mail versendet: Für den Mailversand ist kein SMTP-Server eingerichtet.
          Geben Sie {adminData.email} diese Zugangsdaten selbst weiter; bei der ersten Anmeldung
          wird ein eigenes Passwort festgelegt.
        </p>
      )}
    </Alert>
  );
}

/** A link handed out once instead of mailed: its text, the link itself and a copy button. */
function OneTimeLinkNotice({
  testId,
  title,
  children,
  link,
  what,
}: {
  testId: string;
  title: React.ReactNode;
  children: React.ReactNode;
  link: string;
  /** The link's name in the copy button and its confirmation, e.g. "Einladungslink". */
  what: string;
}) {
  return (
    <Alert tone="warning">
      <div className="space-y-2" data-testid={`${testId}-notice`}>
        <p className="font-semibold">{title}</p>
        <p>{children}</p>
        <p className="font-mono text-xs break-all" data-testid={testId}>
          {link}
        </p>
        <CopyButton
          text={link}
          label={`${what} kopieren`}
          success={`${what} in die Zwischenablage kopiert!`}
        />
      </div>
    </Alert>
  );
}

/**
 * Without SMTP no invitation mail leaves the server: the inviting admin gets the link once, with a
 * copy button (without JS a read-only field to copy by hand), and is told plainly.
 */
export function InvitationLinkNotice({ email, link }: { email: string; link: string }) {
  return (
    <OneTimeLinkNotice
      testId="invitation-link"
      title="Es wurde keine E-Mail versendet: Für den Mailversand ist kein SMTP-Server eingerichtet."
      link={link}
      what="Einladungslink"
    >
      Geben Sie {email} diesen Einladungslink selbst weiter (7 Tage gültig, wird nur jetzt
      angezeigt):
    </OneTimeLinkNotice>
  );
}

/** "Passwort-Reset-Link erzeugen": the link for another admin, shown once (not mailed). */
export function ResetLinkNotice({ username, link }: { username: string; link: string }) {
  return (
    <OneTimeLinkNotice
      testId="reset-link"
      title={`Passwort-Reset-Link für ${username}`}
      link={link}
      what="Reset-Link"
    >
      Geben Sie {username} diesen Link auf sicherem Weg weiter (eine Stunde gültig, nur einmal
      verwendbar, wird nur jetzt angezeigt). Es wurde keine E-Mail versendet.
    </OneTimeLinkNotice>
  );
}
