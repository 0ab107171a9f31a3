import { inputClass } from "~/components/ui/field";

/** The list's filter by utm_source (attribution): the sources requests came with. */
export function SourceFilter({ sources, value }: { sources: string[]; value: string }) {
  const options = value && !sources.includes(value) ? [value, ...sources] : sources;
  return (
    <div>
      <label htmlFor="source" className="mb-1 block text-sm font-medium">
        Quelle
      </label>
      <select id="source" name="source" defaultValue={value} className={inputClass}>
        <option value="">Alle</option>
        {options.map((source) => (
          <option key={source} value={source}>
            {source}
          </option>
        ))}
      </select>
    </div>
  );
}
