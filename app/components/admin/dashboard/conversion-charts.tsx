import { Card } from "~/components/ui/card";
import { type ConversionStats, formatDuration, formatShare } from "~/lib/conversion";
import { formatDate } from "~/lib/format";
import { BarListChart, ColumnChart, ShareBar } from "./charts";

const NO_SOURCE = "Direkt / unbekannt";
const NO_CODE = "Ohne Code";
const OTHERS = "Andere";

const label = (value: string | null, none: string) =>
  value === null ? none : value === "…" ? OTHERS : value;

/** The conversion section of the dashboard (ADR 147): four server-rendered charts. */
export function ConversionCharts({ stats }: { stats: ConversionStats }) {
  const total = stats.weeks.reduce((sum, w) => sum + w.count, 0);
  const weekBars = stats.weeks.map((w) => ({
    label: formatDate(w.start).slice(0, 6),
    detail: `Woche ab ${formatDate(w.start)}`,
    value: w.count,
  }));
  const best = stats.weeks.reduce((a, b) => (b.count > a.count ? b : a), stats.weeks[0]);
  return (
    <section aria-labelledby="conversion-heading" className="space-y-4">
      <h2 id="conversion-heading" className="text-lg font-semibold">
        Konversion (letzte 12 Wochen)
      </h2>
      <div className="grid gap-4 lg:grid-cols-2">
        <Card className="p-5 lg:col-span-2">
          <h3 className="mb-3 font-medium">Neue Anfragen pro Woche</h3>
          <ColumnChart
            title="Neue Anfragen pro Woche"
            description={`${total} Anfragen in 12 Wochen${best?.count ? `, die meisten (${best.count}) in der Woche ab ${formatDate(best.start)}` : ""}.`}
            bars={weekBars}
            head={["Woche", "Anfragen"]}
          />
        </Card>
        <Card className="p-5">
          <h3 className="mb-1 font-medium">Demo gebucht</h3>
          <p className="mb-3 text-3xl font-bold" data-figure="demo-share">
            {formatShare(stats.demo.share)}
          </p>
          <ShareBar
            title="Anteil der Anfragen mit gebuchter Demo"
            description={`${stats.demo.booked} von ${stats.demo.requests} Anfragen haben eine Demo gebucht (${formatShare(stats.demo.share)}).`}
            share={stats.demo.share}
          />
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">
            {stats.demo.booked} von {stats.demo.requests} Anfragen
          </p>
        </Card>
        <Card className="p-5">
          <h3 className="mb-1 font-medium">Zeit bis zur ersten Statusänderung</h3>
          <p className="text-3xl font-bold" data-figure="first-change">
            {stats.firstChange.medianMs === null ? "–" : formatDuration(stats.firstChange.medianMs)}
          </p>
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">
            {stats.firstChange.changed
              ? `Median über ${stats.firstChange.changed} bearbeitete Anfragen`
              : "Noch keine Statusänderung"}
          </p>
        </Card>
        {BREAKDOWNS.map(({ key, ...breakdown }) => (
          <Breakdown key={key} {...breakdown} items={stats[key]} />
        ))}
      </div>
    </section>
  );
}

/** The requests counted by source and by affiliate code, one card each. */
const BREAKDOWNS = [
  {
    key: "bySource",
    heading: "Anfragen nach Quelle",
    title: "Anfragen nach Quelle (utm_source)",
    none: NO_SOURCE,
    head: ["Quelle", "Anfragen"],
  },
  {
    key: "byAffiliate",
    heading: "Anfragen nach Affiliate-Code",
    title: "Anfragen nach Affiliate-Code",
    none: NO_CODE,
    head: ["Affiliate-Code", "Anfragen"],
  },
] as const satisfies readonly {
  key: "bySource" | "byAffiliate";
  heading: string;
  title: string;
  none: string;
  head: readonly [string, string];
}[];

/** One card: requests counted by a label (source, affiliate code), as horizontal bars. */
function Breakdown({
  heading,
  title,
  items,
  none,
  head,
}: {
  heading: string;
  title: string;
  items: { label: string | null; count: number }[];
  /** The label of the requests without one (e.g. "Direkt"). */
  none: string;
  head: readonly [string, string];
}) {
  const bars = items.map((i) => ({ label: label(i.label, none), value: i.count }));
  return (
    <Card className="p-5">
      <h3 className="mb-3 font-medium">{heading}</h3>
      {bars.length ? (
        <BarListChart
          title={title}
          description={bars.map((i) => `${i.label}: ${i.value}`).join(", ")}
          bars={bars}
          head={head}
        />
      ) : (
        <p className="text-sm text-slate-600 dark:text-slate-300">Keine Anfragen im Zeitraum.</p>
      )}
    </Card>
  );
}
