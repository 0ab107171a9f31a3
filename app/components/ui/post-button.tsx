import type { ButtonHTMLAttributes } from "react";
import { Form } from "react-router";
import { buttonClass } from "./button";

/** The values a form posts back unseen, e.g. `{ intent: 'toggle', id: 3 }`. */
export function HiddenFields({ fields }: { fields: Record<string, string | number> }) {
  return Object.entries(fields).map(([name, value]) => (
    <input key={name} type="hidden" name={name} value={value} />
  ));
}

/**
 * A form of one button that posts `fields` (an intent and an id) to the page's action or to `action`;
 * works without JS. A small secondary button unless `className` replaces its classes.
 */
export function PostButton({
  fields,
  action,
  className,
  ...button
}: {
  fields: Record<string, string | number>;
  /** Route to post to; default the current route's action. */
  action?: string;
} & Omit<ButtonHTMLAttributes<HTMLButtonElement>, "type">) {
  return (
    <Form method="post" action={action}>
      <HiddenFields fields={fields} />
      <button type="submit" className={className ?? buttonClass("secondary", "sm")} {...button} />
    </Form>
  );
}
