import { createCookie } from "react-router";

export type Theme = "light" | "dark";

const ONE_YEAR = 365 * 24 * 3600;
/** Not httpOnly-sensitive data, but kept httpOnly anyway: the server renders the class before paint. */
export const themeCookie = createCookie("theme", {
  path: "/",
  sameSite: "lax",
  httpOnly: true,
  maxAge: ONE_YEAR,
});

export async function readTheme(request: Request): Promise<Theme> {
  const value = await themeCookie.parse(request.headers.get("cookie"));
  return value === "dark" ? "dark" : "light";
}
