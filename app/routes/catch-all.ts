import { redirect } from "react-router";

/** The spec: any unknown path redirects to /. */
export function loader() {
  return redirect("/");
}
export const action = loader;
