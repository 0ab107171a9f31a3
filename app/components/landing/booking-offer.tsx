import { buttonClass } from "~/components/ui/button";

/** After a successful submission: the demo-booking offer (hidden once a demo is booked). */
export function BookingOffer({ requestId }: { requestId: number; requesterName: string }) {
  return (
    <div className="mt-4 rounded-lg border border-indigo-200 bg-white p-4 dark:border-indigo-900 dark:bg-slate-900">
      <p className="font-semibold text-slate-900 dark:text-white">
        Lust auf eine persönliche Demo?
      </p>
      <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
        Such dir gleich einen Termin aus – wir zeigen dir dort deine Testversion.
      </p>
      <a href={`/termin?anfrage=${requestId}`} className={`${buttonClass("primary", "sm")} mt-3`}>
        Demo-Termin buchen
      </a>
    </div>
  );
}
