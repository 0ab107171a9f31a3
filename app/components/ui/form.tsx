import {
  type FieldMetadata,
  type FormMetadata,
  getFormProps,
  getInputProps,
  type SubmissionResult,
  useForm,
} from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { InputHTMLAttributes, ReactNode } from "react";
import { Form, useNavigation } from "react-router";
import type { z } from "zod";
import { Alert, FieldErrors, inputClass } from "./field";

// The one form idiom (ADR 125): `useConformForm` + `<ConformForm>` + `<Field>` + `<FormErrors>`.
// No `constraint` is passed: the browser's own length/pattern checks would answer no-JS visitors
// in its language instead of the schema's German messages; `required` is set per field.

/** Conform's `useForm` with the house settings: validate on blur, revalidate on input. */
export function useConformForm<
  Schema extends z.ZodType<Record<string, unknown>, Record<string, unknown>>,
>(
  schema: Schema,
  lastResult: SubmissionResult<string[]> | null | undefined,
  options: { id?: string; defaultValue?: Partial<z.input<Schema>> } = {},
) {
  const navigation = useNavigation();
  return useForm<z.input<Schema>, z.output<Schema>>({
    id: options.id,
    // biome-ignore lint/suspicious/noExplicitAny: Conform's DefaultValue type of the schema's input
    defaultValue: options.defaultValue as any,
    lastResult: navigation.state === "idle" ? lastResult : null,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
}

/** A form's own errors (not tied to a field) in one alert. */
export function FormErrors({ errors }: { errors?: string[] | null }) {
  if (!errors?.length) return null;
  return (
    <Alert>
      {errors.map((e) => (
        <p key={e}>{e}</p>
      ))}
    </Alert>
  );
}

type AnyForm = FormMetadata<Record<string, unknown>, string[]>;

/** A POST form wired to Conform (`getFormProps`), its form errors shown above it. */
export function ConformForm({
  form,
  className = "space-y-4",
  action,
  children,
}: {
  // biome-ignore lint/suspicious/noExplicitAny: any Conform form, whatever its schema
  form: FormMetadata<any, string[]>;
  className?: string;
  /** Where it posts, e.g. with a `#fragment` so the answer of a no-JS post lands at the form. */
  action?: string;
  children: ReactNode;
}) {
  return (
    <>
      <FormErrors errors={(form as AnyForm).errors} />
      <Form method="post" action={action} {...getFormProps(form)} className={className}>
        {children}
      </Form>
    </>
  );
}

/** A labelled text input bound to a Conform field, with its hint and errors. */
export function Field<FieldSchema, FormSchema extends Record<string, unknown>>({
  meta,
  label,
  type = "text",
  hint,
  ...props
}: {
  meta: FieldMetadata<FieldSchema, FormSchema, string[]>;
  label: ReactNode;
  type?: "text" | "email" | "password" | "number";
  hint?: ReactNode;
} & Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "id" | "name" | "defaultValue" | "form">) {
  // The hint describes the input too (read with it by screen readers), after the error if any.
  const { key, ...input } = getInputProps(meta, {
    type,
    ariaDescribedBy: hint ? meta.descriptionId : undefined,
  });
  return (
    <div>
      <label
        htmlFor={meta.id}
        className="mb-1 block text-sm font-medium text-slate-700 dark:text-slate-200"
      >
        {label}
      </label>
      <input key={key} className={inputClass} {...input} {...props} />
      {hint ? (
        <div id={meta.descriptionId} className="mt-1 text-xs text-slate-500 dark:text-slate-400">
          {hint}
        </div>
      ) : null}
      <FieldErrors id={meta.errorId} errors={meta.errors} />
    </div>
  );
}
