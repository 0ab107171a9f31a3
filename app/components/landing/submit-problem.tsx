import type { Ref } from "react";

/**
 * Why the JS form's submission did not arrive (no connection, no answer, the server's refusal, a
 * refused file), right above the button the visitor just pressed: announced, and focused with the
 * viewport on it (ADR 210). Everything typed, picked and recorded stays for the retry.
 */
export function SubmitProblem({ message, ref }: { message: string; ref?: Ref<HTMLDivElement> }) {
  return (
    <div
      ref={ref}
      role="alert"
      tabIndex={-1}
      data-reveal=""
      data-testid="contact-submit-problem"
      className="scroll-mt-24 scroll-mb-24 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-red-500 dark:border-red-900 dark:bg-red-950 dark:text-red-200"
    >
      {message}
    </div>
  );
}
