import { onlyMethod, publicApi } from "~/server/http/api-route.server";
import { newChallenge } from "~/server/spam/altcha.server";

/**
 * GET /api/altcha/challenge → 200, a new signed proof-of-work challenge exactly as altcha-lib's
 * `createChallenge` returns it (ADR 250); never cached: each one is used once.
 */
export const loader = publicApi(
  { fallback: "Fehler beim Erstellen der Aufgabe", methods: ["GET"] },
  async () => Response.json(await newChallenge(), { headers: { "Cache-Control": "no-store" } }),
);

export const action = onlyMethod("GET");
