import { redirect } from "react-router";
import { unknownPathTarget } from "~/server/http/path-aliases.server";
import type { Route } from "./+types/catch-all";

/** The spec: any unknown path redirects to / (a few guessed addresses to their real target). */
export function loader({ request }: Route.LoaderArgs) {
  return redirect(unknownPathTarget(new URL(request.url).pathname));
}
export const action = loader;
