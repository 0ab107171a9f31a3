/** The short privacy note beside the form: what is stored, why, for how long; links the policy. */
export function PrivacyNote({
  text,
  privacyUrl,
  target,
}: {
  text: string;
  privacyUrl: string;
  /** In the framed form (/embed) the policy opens in the whole window. */
  target?: "_top";
}) {
  return (
    <p className="text-xs text-slate-600 dark:text-slate-400" data-testid="privacy-note">
      {text}{" "}
      <a className="underline underline-offset-2" href={privacyUrl} rel="noopener" target={target}>
        Datenschutzerklärung
      </a>
    </p>
  );
}
