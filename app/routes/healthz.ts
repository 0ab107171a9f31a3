import { pingDb } from "~/server/db.server";

export function loader() {
  const ok = pingDb();
  return new Response(ok ? "OK" : "Datenbank nicht erreichbar", {
    status: ok ? 200 : 503,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}
