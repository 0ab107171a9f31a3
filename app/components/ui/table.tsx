import type { ReactNode } from "react";

/** A table's header row: one column header (`scope="col"`) per label, all with the same classes. */
export function TableHead({
  columns,
  className,
  cellClassName,
}: {
  columns: readonly string[];
  className?: string;
  cellClassName?: string;
}) {
  return (
    <thead className={className}>
      <tr>
        {columns.map((column) => (
          <th key={column} scope="col" className={cellClassName}>
            {column}
          </th>
        ))}
      </tr>
    </thead>
  );
}

const LOOKS = {
  /** A line under the header and under each row (`linedRowClass`): the visitor's history, the audit log. */
  lined: {
    table: "w-full text-left text-sm",
    head: "border-b border-slate-200 text-slate-600 dark:border-slate-800 dark:text-slate-400",
    body: undefined,
  },
  /** A shaded header and dividers between rows: the admin lists. */
  shaded: {
    table: "min-w-full divide-y divide-slate-200 text-sm dark:divide-slate-800",
    head: "bg-slate-50 dark:bg-slate-800/50",
    body: "divide-y divide-slate-100 dark:divide-slate-800",
  },
} as const;

/** The row of a `lined` table. */
export const linedRowClass = "border-b border-slate-100 align-top dark:border-slate-800";

/** A data table: the header from `columns`, the rows (`<tr>`) as children. */
export function Table({
  look,
  columns,
  cellClassName,
  className = "",
  children,
}: {
  look: keyof typeof LOOKS;
  columns: readonly string[];
  /** Classes of the column headers. */
  cellClassName: string;
  /** Extra classes of the `<table>`. */
  className?: string;
  children: ReactNode;
}) {
  const { table, head, body } = LOOKS[look];
  return (
    <table className={`${table} ${className}`.trim()}>
      <TableHead columns={columns} className={head} cellClassName={cellClassName} />
      <tbody className={body}>{children}</tbody>
    </table>
  );
}
