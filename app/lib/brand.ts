/** The one brand name of the product: headers, account pages, mails and calendar files use it. */
export const BRAND_NAME = "Anfrage-Portal";

/** What the visitor or admin chose; "system" until a choice is stored (the OS preference applies). */
export type ThemeChoice = "light" | "dark" | "system";

/** The class on <html> for a choice: none for "system", so the CSS media query decides. */
export function themeClass(choice: ThemeChoice | undefined): string | undefined {
  return choice === "dark" || choice === "light" ? choice : undefined;
}
