import type { ButtonHTMLAttributes } from "react";

type Variant = "primary" | "secondary" | "danger" | "ghost";

/**
 * Classes of a button, also for links styled as buttons: `btn`, its size and its variant, defined
 * once in app.css (@layer components) instead of ~300 characters of utilities in every button's
 * markup (the admin list repeats them in every row; ADR 190). Utilities added beside them win.
 */
export function buttonClass(variant: Variant = "primary", size: "sm" | "md" = "md") {
  return `btn btn-${size} btn-${variant}`;
}

export function Button({
  variant = "primary",
  size = "md",
  className = "",
  type = "button",
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant; size?: "sm" | "md" }) {
  return <button type={type} className={`${buttonClass(variant, size)} ${className}`} {...props} />;
}
