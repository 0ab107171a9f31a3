import { type Cookie, createCookie } from "react-router";
import { env, isProduction } from "../platform/env.server";

/**
 * The one factory of the app's signed cookies (session, flash, visitor history): httpOnly,
 * SameSite=Lax, Secure in production over https, signed with SESSION_SECRET (a comma-separated
 * list rotates). Made on first use, once the env is read.
 */
export function signedCookie(name: string, maxAgeSeconds: number): () => Cookie {
  let cookie: Cookie | undefined;
  return () => {
    cookie ??= createCookie(name, {
      httpOnly: true,
      sameSite: "lax",
      secure: isProduction() && env().APP_URL.startsWith("https://"),
      path: "/",
      maxAge: maxAgeSeconds,
      secrets: env().SESSION_SECRET.split(","),
    });
    return cookie;
  };
}
