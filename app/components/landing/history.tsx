import { ConfirmAction } from "~/components/ui/confirm-action";
import { Alert } from "~/components/ui/field";
import { Honeypot } from "~/components/ui/honeypot";
import { linedRowClass, Table } from "~/components/ui/table";
import { VoicePlayer } from "~/components/ui/voice-player";
import { formatDate, formatFileSize, formatRequestId, summaryOf } from "~/lib/format";
import { WITHDRAW_PATH, withdrawalQuestion } from "~/lib/withdrawal";
import { AppointmentTrace, BookDemoLink, type BookedAppointment } from "./appointment-trace";
import { LandingSection } from "./landing-section";

export type HistoryItem = {
  id: number;
  name: string;
  description: string;
  summary: string | null;
  companyDescription: string;
  status: "New" | "In Progress" | "Done";
  createdAt: string;
  audioPath: string | null;
  attachments: { id: number; originalName: string; size: number }[];
  /** The booked demo (not cancelled), if any. */
  appointment: BookedAppointment | null;
};

/** A booked demo with its .ics link, or (booking on) the way to book one. */
function Demo({ item, bookingEnabled }: { item: HistoryItem; bookingEnabled: boolean }) {
  if (item.appointment)
    return <AppointmentTrace requestId={item.id} appointment={item.appointment} />;
  return bookingEnabled ? (
    <div className="mt-3">
      <BookDemoLink requestId={item.id} />
    </div>
  ) : null;
}

const STATUS_LABEL: Record<HistoryItem["status"], string> = {
  New: "Neu",
  "In Progress": "In Bearbeitung",
  Done: "Erledigt",
};
const STATUS_CLASS: Record<HistoryItem["status"], string> = {
  New: "bg-blue-100 text-blue-900 dark:bg-blue-900/50 dark:text-blue-100",
  "In Progress": "bg-amber-100 text-amber-900 dark:bg-amber-900/50 dark:text-amber-100",
  Done: "bg-green-100 text-green-900 dark:bg-green-900/50 dark:text-green-100",
};

function StatusBadge({ status }: { status: HistoryItem["status"] }) {
  return (
    <span
      className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold ${STATUS_CLASS[status]}`}
    >
      {STATUS_LABEL[status]}
    </span>
  );
}

function Details({ item }: { item: HistoryItem }) {
  return (
    <div className="mt-3 space-y-3 text-sm text-slate-700 dark:text-slate-300">
      <div>
        <h4 className="font-semibold text-slate-900 dark:text-white">Unternehmen</h4>
        <p className="whitespace-pre-line">{item.companyDescription}</p>
      </div>
      {item.description ? (
        <div>
          <h4 className="font-semibold text-slate-900 dark:text-white">Projektbeschreibung</h4>
          <p className="whitespace-pre-line">{item.description}</p>
        </div>
      ) : null}
      {item.audioPath ? (
        <div>
          <h4 className="font-semibold text-slate-900 dark:text-white">Sprachnachricht</h4>
          <VoicePlayer audioPath={item.audioPath} className="mt-1 w-full max-w-md" />
        </div>
      ) : null}
      {item.attachments.length ? (
        <div>
          <h4 className="font-semibold text-slate-900 dark:text-white">Anhänge</h4>
          <ul className="list-inside list-disc">
            {item.attachments.map((a) => (
              <li key={a.id}>
                {a.originalName} ({formatFileSize(a.size)})
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <ConfirmAction
        action={WITHDRAW_PATH}
        fields={{ id: String(item.id) }}
        title="Anfrage zurückziehen"
        message={withdrawalQuestion(item.id)}
        label="Anfrage zurückziehen"
        aria-label={`Anfrage #${formatRequestId(item.id)} zurückziehen`}
      >
        <Honeypot />
      </ConfirmAction>
    </div>
  );
}

/** The visitor's own requests (from the signed history cookie): table on desktop, cards on mobile. */
export function History({
  items,
  openedId = null,
  privacyUrl,
  bookingEnabled,
}: {
  items: HistoryItem[];
  /** The request just opened through the signed link of its receipt (ADR 220). */
  openedId?: number | null;
  privacyUrl: string;
  bookingEnabled: boolean;
}) {
  if (!items.length) return null;
  return (
    <LandingSection id="history" title="Meine Anfragen" width="max-w-6xl">
      <p className="mt-2 text-slate-600 dark:text-slate-400">
        Deine gesendeten Anfragen auf diesem Gerät.
      </p>
      {openedId ? (
        <div className="mt-4">
          <Alert tone="success">
            {`Deine Anfrage #${formatRequestId(openedId)} ist jetzt auch auf diesem Gerät gespeichert.`}
            {bookingEnabled
              ? " Hier kannst du einen Demo-Termin buchen oder sie zurückziehen."
              : " Hier kannst du sie ansehen oder zurückziehen."}
          </Alert>
        </div>
      ) : null}
      <Table
        look="lined"
        className="mt-6 hidden md:table"
        columns={["Nr.", "Datum", "Zusammenfassung", "Status"]}
        cellClassName="py-2 pr-4 font-semibold"
      >
        {items.map((item) => (
          <tr key={item.id} className={linedRowClass} data-testid="history-row">
            <td className="py-3 pr-4 font-mono">{`#${formatRequestId(item.id)}`}</td>
            <td className="py-3 pr-4 whitespace-nowrap">{formatDate(item.createdAt)}</td>
            <td className="py-3 pr-4">
              <details>
                <summary className="cursor-pointer rounded">
                  {summaryOf(item) || "Ohne Projektbeschreibung"}
                </summary>
                <Details item={item} />
              </details>
              <Demo item={item} bookingEnabled={bookingEnabled} />
            </td>
            <td className="py-3 pr-4">
              <StatusBadge status={item.status} />
            </td>
          </tr>
        ))}
      </Table>
      <ul className="mt-6 space-y-4 md:hidden">
        {items.map((item) => (
          <li
            key={item.id}
            className="rounded-xl border border-slate-200 p-4 dark:border-slate-800"
            data-testid="history-card"
          >
            <div className="flex items-center justify-between gap-2 text-sm">
              <span className="font-mono">{`#${formatRequestId(item.id)}`}</span>
              <StatusBadge status={item.status} />
            </div>
            <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
              {formatDate(item.createdAt)}
            </p>
            <details className="mt-2">
              <summary className="cursor-pointer rounded text-sm">
                {summaryOf(item) || "Ohne Projektbeschreibung"}
              </summary>
              <Details item={item} />
            </details>
            <Demo item={item} bookingEnabled={bookingEnabled} />
          </li>
        ))}
      </ul>
      <p className="mt-6 text-sm text-slate-600 dark:text-slate-400">
        Du kannst jede Anfrage jederzeit zurückziehen; sie wird dann mit allen Dateien gelöscht.
        Fragen zu deinen Daten?{" "}
        <a className="underline underline-offset-2" href={privacyUrl} rel="noopener">
          Datenschutz-Kontakt
        </a>
      </p>
    </LandingSection>
  );
}
