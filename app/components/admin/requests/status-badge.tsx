import { STATUS_LABELS, statusClass } from "~/lib/request-list";

export function StatusBadge({ status }: { status: string }) {
  const label = STATUS_LABELS[status as keyof typeof STATUS_LABELS] ?? status;
  return (
    <span
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ${statusClass(status)}`}
    >
      {label}
    </span>
  );
}
