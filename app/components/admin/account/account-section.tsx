import type { ReactNode } from "react";
import { Card } from "~/components/ui/card";

/**
 * One section of "Account-Einstellungen" (/admin/account): a card with its own heading, so later
 * sections (e.g. "Sicherheit") sit beside "Profil" and "Passwort" in the same shape.
 */
export function AccountSection({
  id,
  title,
  description,
  children,
}: {
  id: string;
  title: string;
  description?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section id={id} aria-labelledby={`${id}-heading`} className="scroll-mt-24">
      <Card className="space-y-4 p-6">
        <div>
          <h2 id={`${id}-heading`} className="text-lg font-semibold">
            {title}
          </h2>
          {description ? (
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{description}</p>
          ) : null}
        </div>
        {children}
      </Card>
    </section>
  );
}
