import { BoltIcon, MicIcon, PeopleIcon } from "~/components/ui/icons";
import { useBrand } from "~/components/ui/use-brand";

const FEATURES = [
  {
    icon: <BoltIcon size={32} />,
    title: "Testversion in 3 Tagen",
    text: "Statt wochenlanger Konzeptphasen bauen wir aus deiner Beschreibung eine funktionierende erste Version, die du selbst ausprobieren kannst.",
  },
  {
    icon: <MicIcon size={32} />,
    title: "Erzähl es uns, wie du willst",
    text: "Schreib ein paar Sätze, sprich eine Sprachnachricht ein oder häng Skizzen, Tabellen und Dokumente an – wir arbeiten mit allem.",
  },
  {
    icon: <PeopleIcon size={32} />,
    title: "Persönliche Demo",
    text: "In einem kurzen Termin zeigen wir dir die Testversion, klären offene Fragen und besprechen die nächsten Schritte – unverbindlich.",
  },
];

/** The icons' colour: today's blue, or the shades derived from the agency's colour once set. */
const ICON_TONE = {
  default: "text-blue-700 dark:text-blue-300",
  brand: "text-indigo-700 dark:text-indigo-300",
};

export function Features() {
  const { primaryColor } = useBrand();
  const tone = primaryColor ? ICON_TONE.brand : ICON_TONE.default;
  return (
    <section aria-labelledby="features-title" className="px-4 py-16 sm:px-6">
      <h2 id="features-title" className="sr-only">
        Was dich erwartet
      </h2>
      <ul className="mx-auto grid max-w-6xl gap-6 md:grid-cols-3">
        {FEATURES.map((f) => (
          <li
            key={f.title}
            className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900"
          >
            <span aria-hidden="true" className={`inline-flex ${tone}`} data-feature-icon="">
              {f.icon}
            </span>
            <h3 className="mt-3 text-lg font-semibold text-slate-900 dark:text-white">{f.title}</h3>
            <p className="mt-2 text-slate-700 dark:text-slate-300">{f.text}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
