import { type ReactNode, useId } from "react";

/**
 * Server-rendered SVG charts (no JS). Each SVG is one image for assistive technology (role="img",
 * <title> and <desc>), and the same numbers follow as a visually hidden table. Colours come from
 * currentColor (text-* classes), so dark mode needs nothing else.
 */

export type Bar = { label: string; value: number; detail?: string };

/** A chart's accessible title and description, its bars, and the two column heads of its data table. */
type ChartProps = {
  title: string;
  description: string;
  bars: Bar[];
  head: readonly [string, string];
};

function HiddenTable({
  caption,
  head,
  rows,
}: {
  caption: string;
  head: readonly [string, string];
  rows: Bar[];
}) {
  return (
    <table className="sr-only">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{head[0]}</th>
          <th scope="col">{head[1]}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.label}>
            <th scope="row">{row.detail ?? row.label}</th>
            <td>{row.value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The accessible frame of a chart: an SVG image named by its title and description, and the same
 * numbers as a visually hidden table. */
type FrameProps = { kind: string; chart: ChartProps; width: number; height: number };

function ChartFrame({
  kind,
  chart,
  width,
  height,
  children,
}: FrameProps & { children: ReactNode }) {
  const { title, description, bars, head } = chart;
  const id = useId();
  return (
    <figure>
      <svg
        role="img"
        aria-labelledby={`${id}-title ${id}-desc`}
        viewBox={`0 0 ${width} ${height}`}
        className="h-auto w-full text-slate-600 dark:text-slate-300"
        data-chart={kind}
      >
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{description}</desc>
        {children}
      </svg>
      <HiddenTable caption={title} head={head} rows={bars} />
    </figure>
  );
}

/** Vertical bars (e.g. requests per week), the value above each bar. */
export function ColumnChart(chart: ChartProps) {
  const { bars } = chart;
  const width = 600;
  const height = 200;
  const top = 20;
  const bottom = 24;
  const max = Math.max(1, ...bars.map((b) => b.value));
  const slot = width / Math.max(1, bars.length);
  const barWidth = slot * 0.6;
  return (
    <ChartFrame kind="columns" chart={chart} width={width} height={height}>
      <line
        x1={0}
        x2={width}
        y1={height - bottom}
        y2={height - bottom}
        stroke="currentColor"
        strokeOpacity={0.3}
      />
      {bars.map((bar, i) => {
        const h = ((height - top - bottom) * bar.value) / max;
        const x = i * slot + (slot - barWidth) / 2;
        const y = height - bottom - h;
        return (
          <g key={bar.label}>
            <rect
              x={x}
              y={y}
              width={barWidth}
              height={h}
              rx={3}
              fill="currentColor"
              className="text-indigo-600 dark:text-indigo-400"
            />
            {/* The value above the column, the label below the axis. */}
            {[
              [y - 4, 12, bar.value],
              [height - 6, 11, bar.label],
            ].map(([textY, size, text]) => (
              <text
                key={textY}
                x={x + barWidth / 2}
                y={textY}
                textAnchor="middle"
                fontSize={size}
                fill="currentColor"
              >
                {text}
              </text>
            ))}
          </g>
        );
      })}
    </ChartFrame>
  );
}

/** Horizontal bars with their label (e.g. requests by source). */
export function BarListChart(chart: ChartProps) {
  const { bars } = chart;
  const width = 600;
  const row = 28;
  const labelWidth = 200;
  const height = Math.max(1, bars.length) * row;
  const max = Math.max(1, ...bars.map((b) => b.value));
  return (
    <ChartFrame kind="bars" chart={chart} width={width} height={height}>
      {bars.map((bar, i) => {
        const w = ((width - labelWidth - 50) * bar.value) / max;
        const y = i * row;
        return (
          <g key={bar.label}>
            <text x={0} y={y + row / 2 + 4} fontSize={13} fill="currentColor">
              {bar.label.length > 26 ? `${bar.label.slice(0, 25)}…` : bar.label}
            </text>
            <rect
              x={labelWidth}
              y={y + 5}
              width={Math.max(w, 2)}
              height={row - 10}
              rx={3}
              fill="currentColor"
              className="text-teal-600 dark:text-teal-400"
            />
            <text x={labelWidth + w + 8} y={y + row / 2 + 4} fontSize={13} fill="currentColor">
              {bar.value}
            </text>
          </g>
        );
      })}
    </ChartFrame>
  );
}

/** One share as a filled bar with the percentage (e.g. requests that booked a demo). */
export function ShareBar({
  title,
  description,
  share,
}: {
  title: string;
  description: string;
  share: number;
}) {
  const id = useId();
  const width = 600;
  const height = 28;
  return (
    <svg
      role="img"
      aria-labelledby={`${id}-title ${id}-desc`}
      viewBox={`0 0 ${width} ${height}`}
      className="h-auto w-full text-slate-300 dark:text-slate-700"
      data-chart="share"
    >
      <title id={`${id}-title`}>{title}</title>
      <desc id={`${id}-desc`}>{description}</desc>
      <rect x={0} y={0} width={width} height={height} rx={6} fill="currentColor" />
      <rect
        x={0}
        y={0}
        width={width * Math.min(1, Math.max(0, share))}
        height={height}
        rx={6}
        fill="currentColor"
        className="text-emerald-600 dark:text-emerald-400"
      />
    </svg>
  );
}
