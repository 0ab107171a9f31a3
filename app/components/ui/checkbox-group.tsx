import type { ReactNode } from "react";

export type CheckboxOption = { value: string | number; label: ReactNode; checked: boolean };

// A long label (an admin's e-mail address) breaks anywhere rather than widening a 320 px page
// (ADR 342: no admin page scrolls sideways).
const LAYOUTS = {
  /** The options in a wrapping row. */
  row: {
    list: "flex flex-wrap gap-x-4 gap-y-1 text-sm",
    option: "inline-flex min-w-0 items-center gap-2 [overflow-wrap:anywhere]",
  },
  /** The options in two columns from `sm` up. */
  grid: {
    list: "grid gap-1 text-sm sm:grid-cols-2",
    option: "flex min-w-0 items-center gap-2 [overflow-wrap:anywhere]",
  },
} as const;

/**
 * A fieldset of checkboxes that posts each checked value under one `name` (works without JS);
 * `children` follow the options (e.g. the group's `<FieldErrors>`).
 */
export function CheckboxGroup({
  legend,
  name,
  options,
  layout = "row",
  describedBy,
  children,
}: {
  legend: ReactNode;
  name: string;
  options: readonly CheckboxOption[];
  layout?: keyof typeof LAYOUTS;
  /** The id of the element describing the group (its error message). */
  describedBy?: string;
  children?: ReactNode;
}) {
  const classes = LAYOUTS[layout];
  return (
    <fieldset aria-describedby={describedBy}>
      <legend className="mb-1 block text-sm font-medium">{legend}</legend>
      <div className={classes.list}>
        {options.map((option) => (
          <label key={option.value} className={classes.option}>
            <input
              type="checkbox"
              name={name}
              value={option.value}
              defaultChecked={option.checked}
            />
            {option.label}
          </label>
        ))}
      </div>
      {children}
    </fieldset>
  );
}

/** Options whose label is their value, checked when `checked` lists them. */
export function plainOptions(
  values: readonly string[],
  checked: readonly string[],
): CheckboxOption[] {
  return values.map((value) => ({ value, label: value, checked: checked.includes(value) }));
}
