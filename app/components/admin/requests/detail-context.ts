import { useLocation } from "react-router";
import type { PreparationField } from "~/lib/configuration";

export type AdminOption = { id: number; username: string; is_active: boolean };
export type DetailContext = {
  admins: AdminOption[];
  fields: PreparationField[];
  aiConfigured: boolean;
  origin: string;
};

/** The page URL the forms post to (keeps the list state and the open request). */
export function useActionUrl() {
  const location = useLocation();
  return `${location.pathname}${location.search}`;
}

export function shareLink(origin: string, id: number) {
  return `${origin}/admin/requests?requestId=${id}`;
}
