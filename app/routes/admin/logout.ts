import { redirect } from "react-router";
import { endSession } from "~/server/accounts/auth.server";
import type { Route } from "./+types/logout";

/** POST: ends the session (row and cookie) and always lands on the login page. */
export async function action({ request }: Route.ActionArgs) {
  throw redirect("/admin/login?notice=logged-out", {
    headers: { "Set-Cookie": await endSession(request) },
  });
}

/** GET never changes state; it just shows the login page. */
export function loader() {
  throw redirect("/admin/login");
}
