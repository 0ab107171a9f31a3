import type { ReactNode } from "react";
import { Card } from "~/components/ui/card";
import type { SettingsSection } from "~/lib/settings-form";

/** One titled card of the settings form. */
export function Section({
  name,
  title,
  children,
  description,
}: {
  /** Posted as the section marker: a save without every marker is refused. */
  name: SettingsSection;
  title: string;
  description?: string;
  children: ReactNode;
}) {
  return (
    <Card className="space-y-4 p-5">
      <input type="hidden" name="section" value={name} />
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
