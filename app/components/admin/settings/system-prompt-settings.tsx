import { FieldErrors, inputClass } from "~/components/ui/field";
import type { Configuration } from "~/lib/configuration";
import { Section } from "./section";

/** The system prompt the AI preparation runs with. */
export function SystemPromptSettings({
  config,
  fieldErrors,
}: {
  config: Configuration;
  fieldErrors?: Record<string, string[]>;
}) {
  return (
    <Section
      name="systemPrompt"
      title="KI-System-Prompt"
      description="Wird der KI bei der automatischen Vorbereitung als System-Prompt mitgegeben."
    >
      <label htmlFor="systemPrompt" className="sr-only">
        System-Prompt
      </label>
      <textarea
        id="systemPrompt"
        name="systemPrompt"
        rows={6}
        defaultValue={config.systemPrompt}
        className={inputClass}
      />
      <FieldErrors errors={fieldErrors?.systemPrompt} />
    </Section>
  );
}
