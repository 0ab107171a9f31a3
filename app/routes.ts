import { index, layout, prefix, type RouteConfig, route } from "@react-router/dev/routes";

// Mirrors the spec's route table (§2) and call list (§7), plus the product's own routes.
export default [
  // Visitor. The landing page is a path route, not an index route, so its no-JS form posts to
  // "/" and the visible URL after a failed submission has no "?index" (ADR 111).
  route("/", "routes/landing/index.tsx"),
  // The contact form alone, for a frame on the agency's own website (ADR 283)
  route("embed", "routes/landing/embed.tsx"),
  route("preferences/theme", "routes/landing/preferences.theme.ts"),
  route("preferences/consent", "routes/landing/preferences.consent.ts"),
  route("preferences/banner", "routes/landing/preferences.banner.ts"),
  // The visitor's other pages, under the landing page's site header (also on their error pages)
  layout("routes/landing/visitor-layout.tsx", [
    // Demo booking without JavaScript (the same dialog, rendered by the server from URL state)
    route("termin", "routes/landing/termin.tsx"),
    // Cancel or reschedule a booked demo through the signed link from the booking mails
    route("termin/verwalten", "routes/landing/termin-verwalten.tsx"),
    route("anfrage-zurueckziehen", "routes/landing/anfrage-zurueckziehen.tsx"),
    // The signed link from the receipt mail: puts the request into this browser's history (ADR 220)
    route("meine-anfrage", "routes/landing/meine-anfrage.tsx"),
    // The accessibility statement (BFSG §14) with its feedback form (ADR 340)
    route("barrierefreiheit", "routes/landing/barrierefreiheit.tsx"),
  ]),
  // The booked demo as .ics for the visitor's own request ("Zum Kalender hinzufügen")
  route("termin/kalender", "routes/landing/termin-kalender.ts"),
  route("healthz", "routes/healthz.ts"),
  route("branding/logo", "routes/branding-logo.ts"),

  // Admin, public
  ...prefix("admin", [
    route("login", "routes/admin/login.tsx"),
    route("logout", "routes/admin/logout.ts"),
    route("register", "routes/admin/register.tsx"),
    route("forgot-password", "routes/admin/forgot-password.tsx"),
    route("reset-password", "routes/admin/reset-password.tsx"),
    // Confirms a new own e-mail address through the signed link mailed to it (no session needed)
    route("account/email-confirm", "routes/admin/account-email-confirm.tsx"),
    // The detail tabs of one list row, loaded when the row is expanded (JSON, admins only)
    route("requests/:id/details", "routes/admin/request-details.ts"),
    // The team's booked demos as a calendar feed, guarded by its token (ADR 267)
    route("kalender.ics", "routes/admin/kalender-ics.ts"),
    // The audit log with the page's filters as CSV (admins only; a plain link, no JS needed)
    route("audit.csv", "routes/admin/audit-csv.ts"),
    // Admin, protected (the layout's loader checks the session on the server)
    layout("routes/admin/layout.tsx", [
      index("routes/admin/dashboard.tsx", { id: "admin-index" }),
      route("dashboard", "routes/admin/dashboard.tsx", { id: "admin-dashboard" }),
      route("requests", "routes/admin/requests.tsx"),
      // The pipeline as a board, beside the list ("Liste | Board", ADR 347)
      route("requests/board", "routes/admin/board.tsx"),
      // The admin's open follow-ups (not in the spec; reached from the dashboard, ADR 351)
      route("aufgaben", "routes/admin/aufgaben.tsx"),
      route("appointments", "routes/admin/appointments.tsx"),
      route("appointments/:id/verschieben", "routes/admin/appointment-move.tsx"),
      route("users", "routes/admin/users.tsx"),
      route("affiliate-codes", "routes/admin/affiliate-codes.tsx"),
      route("settings", "routes/admin/settings.tsx"),
      route("settings/outbox", "routes/admin/outbox.tsx"),
      route("settings/barrierefreiheit", "routes/admin/accessibility-feedback.tsx"),
      route("audit", "routes/admin/audit.tsx"),
      route("change-password", "routes/admin/change-password.tsx"),
      route("account", "routes/admin/account.tsx"),
      route("legacy", "routes/admin/legacy.tsx"),
    ]),
  ]),

  // JSON API (resource routes; same server functions as the pages)
  ...prefix("api", [
    route("configuration", "routes/api/configuration.ts"),
    route("event-type-details", "routes/api/event-type-details.ts"),
    route("altcha/challenge", "routes/api/altcha.challenge.ts"),
    route("calcom/available-slots", "routes/api/calcom.available-slots.ts"),
    route("calcom/book-appointment", "routes/api/calcom.book-appointment.ts"),
    route("calcom/real-event-types", "routes/api/calcom.real-event-types.ts"),
    route("calcom/webhook", "routes/api/calcom.webhook.ts"),
    route("requests", "routes/api/requests.ts"),
    route("requests/:id", "routes/api/requests.$id.ts"),
    route(
      "requests/:id/automated-preparation",
      "routes/api/requests.$id.automated-preparation.ts",
      {
        id: "api-public-automated-preparation",
      },
    ),
    route("requests/:id/cursor-prompt", "routes/api/requests.$id.cursor-prompt.ts", {
      id: "api-public-cursor-prompt",
    }),
    route(
      "requests/:id/attachments/:attachmentId",
      "routes/api/requests.$id.attachments.$attachmentId.ts",
    ),
    route("audio/*", "routes/api/audio.ts"),
    route("uploads/:filename", "routes/api/uploads.$filename.ts"),
    route("affiliate-codes", "routes/api/affiliate-codes.ts"),
    route("affiliate-codes/validate/:code", "routes/api/affiliate-codes.validate.$code.ts"),
    route("affiliate-codes/:id", "routes/api/affiliate-codes.$id.ts"),
    ...prefix("admin", [
      route("auth/login", "routes/api/admin/auth.login.ts"),
      route("auth/login/verify", "routes/api/admin/auth.login.verify.ts"),
      route("auth/passkey/options", "routes/api/admin/auth.passkey.options.ts"),
      route("auth/passkey/verify", "routes/api/admin/auth.passkey.verify.ts"),
      route("auth/logout", "routes/api/admin/auth.logout.ts"),
      route("auth/verify", "routes/api/admin/auth.verify.ts"),
      route("auth/change-password", "routes/api/admin/auth.change-password.ts"),
      route("auth/forgot-password", "routes/api/admin/auth.forgot-password.ts"),
      route("auth/reset-password", "routes/api/admin/auth.reset-password.ts"),
      route("invite", "routes/api/admin/invite.ts"),
      route("branding/logo", "routes/api/admin/branding.logo.ts"),
      route("register", "routes/api/admin/register.ts"),
      route("users", "routes/api/admin/users.ts"),
      route("users/:id", "routes/api/admin/users.$id.ts"),
      route("users/:id/toggle-status", "routes/api/admin/users.$id.toggle-status.ts"),
      route("invitations", "routes/api/admin/invitations.ts"),
      route("invitations/validate/:token", "routes/api/admin/invitations.validate.$token.ts"),
      route("invitations/:id", "routes/api/admin/invitations.$id.ts"),
      route("invitations/:id/resend", "routes/api/admin/invitations.$id.resend.ts"),
      route("invitations/:id/activate", "routes/api/admin/invitations.$id.activate.ts"),
      route("requests", "routes/api/admin/requests.ts"),
      route("requests/archived", "routes/api/admin/requests.archived.ts"),
      route("requests/export.csv", "routes/api/admin/requests.export-csv.ts"),
      route("requests/:id", "routes/api/admin/requests.$id.ts"),
      route("requests/:id/export", "routes/api/admin/requests.$id.export.ts"),
      route("requests/:id/archive", "routes/api/admin/requests.$id.archive.ts"),
      route("requests/:id/assign", "routes/api/admin/requests.$id.assign.ts"),
      route("requests/:id/transcription", "routes/api/admin/requests.$id.transcription.ts"),
      route("requests/:id/messages", "routes/api/admin/requests.$id.messages.ts"),
      route("requests/:id/stage", "routes/api/admin/requests.$id.stage.ts"),
      route("requests/:id/trial", "routes/api/admin/requests.$id.trial.ts"),
      route("pipeline", "routes/api/admin/pipeline.ts"),
      route("requests/:id/notes", "routes/api/admin/requests.$id.notes.ts"),
      route("requests/:id/notes/:noteId", "routes/api/admin/requests.$id.notes.$noteId.ts"),
      route("requests/:id/follow-up", "routes/api/admin/requests.$id.follow-up.ts"),
      route("requests/:id/follow-up/done", "routes/api/admin/requests.$id.follow-up.done.ts"),
      route("tasks", "routes/api/admin/tasks.ts"),
      route(
        "requests/:id/automated-preparation",
        "routes/api/requests.$id.automated-preparation.ts",
        {
          id: "api-admin-automated-preparation",
        },
      ),
      route("requests/:id/cursor-prompt", "routes/api/requests.$id.cursor-prompt.ts", {
        id: "api-admin-cursor-prompt",
      }),
      route("stats", "routes/api/admin/stats.ts"),
      route("setup-check", "routes/api/admin/setup-check.ts"),
      route("setup-check/test-mail", "routes/api/admin/setup-check.test-mail.ts"),
      route("account", "routes/api/admin/account.ts"),
      route("account/2fa/setup", "routes/api/admin/account.2fa.setup.ts"),
      route("account/2fa/enable", "routes/api/admin/account.2fa.enable.ts"),
      route("account/2fa/disable", "routes/api/admin/account.2fa.disable.ts"),
      route("account/2fa/recovery-codes", "routes/api/admin/account.2fa.recovery-codes.ts"),
      route("account/passkeys", "routes/api/admin/account.passkeys.ts"),
      route("account/passkeys/options", "routes/api/admin/account.passkeys.options.ts"),
      route("account/passkeys/verify", "routes/api/admin/account.passkeys.verify.ts"),
      route("account/passkeys/:id", "routes/api/admin/account.passkeys.$id.ts"),
      route("account/sessions", "routes/api/admin/account.sessions.ts"),
      route("account/sessions/:id", "routes/api/admin/account.sessions.$id.ts"),
      route("account/calendar", "routes/api/admin/account.calendar.ts"),
      route("account/calendar/test", "routes/api/admin/account.calendar-check.ts"),
      route("account/preferences", "routes/api/admin/account.preferences.ts"),
      route("api-tokens", "routes/api/admin/api-tokens.ts"),
      route("api-tokens/:id", "routes/api/admin/api-tokens.$id.ts"),
      route("appointments", "routes/api/admin/appointments.ts"),
      route("appointments/:id", "routes/api/admin/appointments.$id.ts"),
      route("appointments/:id/refresh", "routes/api/admin/appointments.$id.refresh.ts"),
      route("appointments/:id/cancel", "routes/api/admin/appointments.$id.cancel.ts"),
      route("appointments/:id/reschedule", "routes/api/admin/appointments.$id.reschedule.ts"),
      route("affiliate-codes", "routes/api/affiliate-codes.ts", {
        id: "api-admin-affiliate-codes",
      }),
      route("affiliate-codes/:id", "routes/api/affiliate-codes.$id.ts", {
        id: "api-admin-affiliate-code",
      }),
    ]),
    route("*", "routes/api/not-found.ts"),
  ]),

  // Any unknown path redirects to /
  route("*", "routes/catch-all.ts"),
] satisfies RouteConfig;
