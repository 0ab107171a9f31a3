import type { ReactNode } from "react";

/** A landing page section with its heading: `id` is the anchor (#faq), `${id}-title` labels it. */
export function LandingSection({
  id,
  title,
  width,
  className = "",
  padding = "py-16",
  children,
}: {
  id: string;
  title: string;
  /** The content column's width. */
  width: "max-w-3xl" | "max-w-6xl";
  /** Extra classes of the section (a background). */
  className?: string;
  /** Vertical padding (the framed form, /embed, needs less). */
  padding?: "py-16" | "py-6";
  children: ReactNode;
}) {
  return (
    <section
      id={id}
      aria-labelledby={`${id}-title`}
      className={`px-4 ${padding} sm:px-6 ${className}`.trim()}
    >
      <div className={`mx-auto ${width}`}>
        <h2
          id={`${id}-title`}
          className="text-2xl font-bold text-slate-900 sm:text-3xl dark:text-white"
        >
          {title}
        </h2>
        {children}
      </div>
    </section>
  );
}
