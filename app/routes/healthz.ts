import { healthy } from "~/server/platform/health.server";

export function loader() {
  const ok = healthy();
  return new Response(ok ? "OK" : "Datenbank nicht erreichbar", {
    status: ok ? 200 : 503,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}
