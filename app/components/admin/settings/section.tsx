import type { ReactNode } from "react";
import { Card } from "~/components/ui/card";

/** One titled card of the settings form. */
export function Section({
  title,
  children,
  description,
}: {
  title: string;
  description?: string;
  children: ReactNode;
}) {
  return (
    <Card className="space-y-4 p-5">
      <div>
        <h2 className="text-lg font-semibold">{title}</h2>
        {description ? (
          <p className="text-sm text-slate-500 dark:text-slate-400">{description}</p>
        ) : null}
      </div>
      {children}
    </Card>
  );
}

export const label = "mb-1 block text-sm font-medium";
