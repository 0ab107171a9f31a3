import { publicApi } from "~/server/http/api-route.server";

/** Unknown /api paths answer JSON 404 instead of the HTML redirect. */
const notFound = publicApi({ fallback: "Nicht gefunden" }, () =>
  Response.json({ error: "Nicht gefunden" }, { status: 404 }),
);

export const loader = notFound;
export const action = notFound;
