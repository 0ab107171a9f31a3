import { useRouteLoaderData } from "react-router";
import { BRAND_NAME } from "~/lib/brand";

/** The brand as the root loader gives it to every page (ADR 268). */
export type RootBrand = { name: string; logoUrl: string | null; primaryColor: string | null };

/** The brand's name and logo; today's name when the root data is missing (an error page). */
export function useBrand(): RootBrand {
  const root = useRouteLoaderData("root") as { brand?: RootBrand } | undefined;
  return root?.brand ?? { name: BRAND_NAME, logoUrl: null, primaryColor: null };
}
