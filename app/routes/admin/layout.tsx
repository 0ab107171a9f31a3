import { Outlet } from "react-router";
import { requireAdmin } from "~/server/auth.server";
import type { Route } from "./+types/layout";

// Placeholder: the protected layout (tab bar, welcome, logout) is built by issue #5.
export async function loader({ request }: Route.LoaderArgs) {
  return { admin: await requireAdmin(request) };
}

export default function AdminLayout() {
  return <Outlet />;
}
