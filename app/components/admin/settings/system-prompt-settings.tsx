import { FieldErrors, inputClass } from "~/components/ui/field";
import { initialText, Section, type SettingsFields, useFieldErrors } from "./section";

/** The system prompt the AI preparation runs with. */
export function SystemPromptSettings({ fields }: { fields: SettingsFields }) {
  const prompt = fields.systemPrompt;
  const { errors, autoFocus } = useFieldErrors(prompt);
  return (
    <Section
      name="systemPrompt"
      title="KI-System-Prompt"
      description="Wird der KI bei der automatischen Vorbereitung als System-Prompt mitgegeben."
    >
      <label htmlFor={prompt.id} className="sr-only">
        System-Prompt
      </label>
      <textarea
        key={prompt.key}
        id={prompt.id}
        name={prompt.name}
        rows={6}
        defaultValue={initialText(prompt)}
        className={inputClass}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={errors?.length ? prompt.errorId : undefined}
        autoFocus={autoFocus}
      />
      <FieldErrors id={prompt.errorId} errors={errors} />
    </Section>
  );
}
