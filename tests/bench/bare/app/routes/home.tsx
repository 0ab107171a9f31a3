import { getFormProps, getInputProps, getTextareaProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, useActionData, useLoaderData } from "react-router";
import { z } from "zod";
import { notes } from "../db.server";

const Schema = z.object({
  name: z.string({ error: "Bitte gib deinen Namen ein." }).min(2, "Mindestens 2 Zeichen."),
  email: z.email("Bitte gib eine gültige E-Mail-Adresse ein."),
  message: z.string({ error: "Bitte beschreibe deine Idee." }).min(10, "Mindestens 10 Zeichen."),
});

export const meta = () => [{ title: "Hallo" }];

/** One SQLite query per request. */
export function loader() {
  return { notes: notes() };
}

export async function action({ request }: { request: Request }) {
  return parseWithZod(await request.formData(), { schema: Schema }).reply();
}

export default function Home() {
  const { notes } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: Schema }),
    shouldValidate: "onBlur",
  });
  return (
    <main>
      <h1>Hallo React Router</h1>
      <ul>
        {notes.map((n) => (
          <li key={n.id}>{n.text}</li>
        ))}
      </ul>
      <Form method="post" {...getFormProps(form)}>
        <label htmlFor={fields.name.id}>Name</label>
        <input {...getInputProps(fields.name, { type: "text" })} />
        <p>{fields.name.errors}</p>
        <label htmlFor={fields.email.id}>E-Mail</label>
        <input {...getInputProps(fields.email, { type: "email" })} />
        <p>{fields.email.errors}</p>
        <label htmlFor={fields.message.id}>Nachricht</label>
        <textarea {...getTextareaProps(fields.message)} />
        <p>{fields.message.errors}</p>
        <button type="submit">Senden</button>
      </Form>
    </main>
  );
}
