import { Form, Link, useLocation } from "react-router";
import { Button, buttonClass } from "~/components/ui/button";

/** Server-rendered confirmation step (works without JS): re-posts the fields with confirmed=1. */
export function UsersConfirmStep({
  title,
  message,
  fields,
  label,
}: {
  title: string;
  message: string;
  fields: Record<string, string>;
  label: string;
}) {
  const location = useLocation();
  return (
    <section
      role="alertdialog"
      aria-labelledby="confirm-title"
      aria-describedby="confirm-message"
      className="rounded-xl border border-red-200 bg-red-50 p-5 dark:border-red-900 dark:bg-red-950"
    >
      <h2 id="confirm-title" className="text-lg font-semibold text-red-900 dark:text-red-100">
        {title}
      </h2>
      <p id="confirm-message" className="mt-2 text-sm text-red-900 dark:text-red-100">
        {message}
      </p>
      <Form method="post" className="mt-4 flex flex-wrap gap-3">
        {Object.entries(fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <input type="hidden" name="confirmed" value="1" />
        <Button type="submit" variant="danger">
          {label}
        </Button>
        <Link to={location.pathname} className={buttonClass("secondary")}>
          Abbrechen
        </Link>
      </Form>
    </section>
  );
}
