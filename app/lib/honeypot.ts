/**
 * The honeypot of every public form: a text field people never see (off-screen, aria-hidden,
 * out of the tab order) that form-filling bots do fill. The server refuses such a post.
 */
export const HONEYPOT_FIELD = "website";
