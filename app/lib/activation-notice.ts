// What an invited colleague reads after registering (the registration page, the login page's
// notice and an awaiting account's login): who activates the account, and whether anyone was
// told — a mail goes out only when SMTP is configured (the outbox keeps it otherwise).

/** Who activates: any active admin on "Benutzer", naming the inviter when there is one. */
function whoActivates(inviter: string | null) {
  return inviter
    ? `Freischalten kann es jeder aktive Admin unter „Benutzer“, zum Beispiel ${inviter} (Ihre Einladung kam von diesem Konto).`
    : "Freischalten kann es jeder aktive Admin unter „Benutzer“.";
}

/** Whether the admins were told, and what the invitee should do. */
function whoWasTold(mailed: boolean, notified: number | null, inviter: string | null) {
  if (!mailed) {
    return `Eine E-Mail an die Admins wurde nicht verschickt, weil auf diesem Server kein E-Mail-Versand eingerichtet ist. Bitte sagen Sie ${inviter ?? "einem Admin"} selbst Bescheid, dass Ihr Konto wartet.`;
  }
  if (notified === null) return "Die aktiven Admins wurden per E-Mail benachrichtigt.";
  return notified === 1
    ? "1 aktiver Admin wurde per E-Mail benachrichtigt."
    : `${notified} aktive Admins wurden per E-Mail benachrichtigt.`;
}

const afterwards = (mailed: boolean) =>
  mailed
    ? "Sobald Ihr Konto freigeschaltet ist, erhalten Sie eine E-Mail und können sich anmelden."
    : "Sobald Ihr Konto freigeschaltet ist, können Sie sich anmelden.";

/** The registration page after a successful registration (and POST /api/admin/register). */
export function registrationMessage(input: {
  mailed: boolean;
  notified: number;
  inviter: string | null;
}) {
  return [
    "Registrierung erfolgreich! Ihr Konto wartet auf die Freischaltung.",
    whoActivates(input.inviter),
    whoWasTold(input.mailed, input.notified, input.inviter),
    afterwards(input.mailed),
  ].join(" ");
}

/** The login page's notice after the registration. */
export function registeredNotice(mailed: boolean) {
  return [
    "Ihr Konto wartet auf die Freischaltung durch einen aktiven Admin (unter „Benutzer“).",
    whoWasTold(mailed, null, null),
    afterwards(mailed),
  ].join(" ");
}

/** The answer to a login of an account that still awaits its activation. */
export function awaitingActivationMessage(mailed: boolean) {
  return [
    "Ihr Konto wartet noch auf die Freischaltung durch einen aktiven Admin (unter „Benutzer“).",
    whoWasTold(mailed, null, null),
    afterwards(mailed),
  ].join(" ");
}

/**
 * The line under an "Admins" count (dashboard, /admin/legacy): the count is every account as
 * "Benutzer" lists them; this says how many of them can log in and how many wait. Empty when all
 * are active.
 */
export function adminCountNote(stats: {
  admins: number;
  activeAdmins: number;
  awaitingActivation: number;
}) {
  if (stats.activeAdmins === stats.admins) return "";
  const inactive = stats.admins - stats.activeAdmins - stats.awaitingActivation;
  return [
    `${stats.activeAdmins} aktiv`,
    stats.awaitingActivation
      ? stats.awaitingActivation === 1
        ? "1 wartet auf Freischaltung"
        : `${stats.awaitingActivation} warten auf Freischaltung`
      : null,
    inactive > 0 ? `${inactive} deaktiviert` : null,
  ]
    .filter(Boolean)
    .join(" · ");
}
