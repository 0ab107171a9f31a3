import { inputClass } from "~/components/ui/field";

/**
 * A GET filter form's labelled select (the request list's and the appointments' filters): one
 * option per [value, label]; `all` puts an empty "Alle" first (no filter).
 */
export function FilterSelect({
  name,
  label,
  value,
  options,
  all = false,
  className,
}: {
  name: string;
  label: string;
  value: string;
  options: readonly (readonly [value: string, label: string])[];
  all?: boolean;
  className?: string;
}) {
  return (
    <div className={className}>
      <label htmlFor={name} className="mb-1 block text-sm font-medium">
        {label}
      </label>
      <select id={name} name={name} defaultValue={value} className={inputClass}>
        {all ? <option value="">Alle</option> : null}
        {options.map(([optionValue, optionLabel]) => (
          <option key={optionValue} value={optionValue}>
            {optionLabel}
          </option>
        ))}
      </select>
    </div>
  );
}

/** [value, label] pairs of a list of values and their labels. */
export function labelled<T extends string>(
  values: readonly T[],
  labels: Record<T, string>,
): [T, string][] {
  return values.map((v) => [v, labels[v]]);
}
