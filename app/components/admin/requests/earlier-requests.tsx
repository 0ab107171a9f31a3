import { Link } from "react-router";
import { formatDateTime, formatRequestId } from "~/lib/format";
import { STATUS_LABELS } from "~/lib/request-list";
import type { RequestStatus } from "~/lib/request-status";

/** List badge: the same person (e-mail or phone) sent earlier requests. */
export function DuplicateBadge({ count }: { count?: number }) {
  if (!count) return null;
  return (
    <span
      className="inline-flex items-center rounded-full bg-violet-100 px-2.5 py-0.5 text-xs font-medium text-violet-800 dark:bg-violet-950 dark:text-violet-200"
      data-duplicate-badge=""
    >
      {count === 1 ? "1 frühere Anfrage" : `${count} frühere Anfragen`}
    </span>
  );
}

export type EarlierRequestItem = {
  id: number;
  name: string;
  createdAt: string;
  status: RequestStatus;
  archived: boolean;
};

/** Full-screen view: the earlier requests of the same person, each a link to its own view. */
export function EarlierRequests({
  items,
  hrefFor,
}: {
  items: EarlierRequestItem[];
  hrefFor: (id: number) => string;
}) {
  if (!items.length) return null;
  return (
    <section
      aria-labelledby="earlier-requests-title"
      className="rounded-xl border border-violet-200 bg-white p-5 dark:border-violet-900 dark:bg-slate-900"
    >
      <h3 id="earlier-requests-title" className="mb-3 text-base font-semibold">
        Frühere Anfragen dieser Person
      </h3>
      <p className="mb-2 text-sm text-slate-600 dark:text-slate-300">
        Gleiche E-Mail-Adresse oder Telefonnummer.
      </p>
      <ul className="space-y-1 text-sm">
        {items.map((item) => (
          <li key={item.id}>
            <Link to={hrefFor(item.id)} className="text-indigo-700 underline dark:text-indigo-300">
              #{formatRequestId(item.id)} – {item.name}
            </Link>{" "}
            <span className="text-slate-500 dark:text-slate-400">
              vom {formatDateTime(item.createdAt)}, {STATUS_LABELS[item.status]}
              {item.archived ? ", archiviert" : ""}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
