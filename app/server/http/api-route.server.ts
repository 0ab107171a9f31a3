import type { RouterContextProvider } from "react-router";
import type { z } from "zod";
import { API_TOKEN_MESSAGES } from "~/lib/api-tokens";
import { fieldErrorsOf } from "~/lib/field-errors";
import { bearerApiToken } from "../accounts/api-tokens/authorize.server";
import { type AdminUser, requireApiAdmin, type SessionAdmin } from "../accounts/auth.server";
import { failureJson } from "../platform/result.server";
import { firstError, jsonError, methodNotAllowed, parseId, withApiFallback } from "./http.server";
import { readJsonObject } from "./json-body.server";

/**
 * The one shape of an `/api` route (style.md "One HTTP adapter"): the German 500 fallback, the
 * method check, authentication, the id param and the bounded JSON body, always in this order —
 * method first only when `methodFirst` says so —, so a route module says only what is special.
 */
export type ApiOptions = {
  /** The German text of the 500 answer (spec §8). */
  fallback: string;
  /** Accepted methods; any other → 405 with `Allow: allow ?? methods.join(", ")`. */
  methods?: readonly string[];
  allow?: string;
  /** Check the method before authentication. */
  methodFirst?: boolean;
  /** A positive integer id from this route param, else 404 with `notFound`. */
  id?: { param: string; notFound: string };
  /** Read a JSON object body (at most 1 MB); unreadable → its German 4xx. */
  json?: boolean;
  /** Validate the JSON body; invalid → 400 `{error: first message, fieldErrors}`. */
  schema?: z.ZodType;
  /** A public call an API token never makes (the login's steps): `Bearer apt_…` → 401 (ADR 260). */
  refuseApiToken?: boolean;
};

/** What React Router hands a loader or action (its generated Route types are assignable to it). */
export type ApiArgs = {
  request: Request;
  params: Record<string, string | undefined>;
  context: Readonly<RouterContextProvider>;
};

export type ApiContext<O extends ApiOptions> = {
  args: ApiArgs;
  request: Request;
  id: O extends { id: object } ? number : undefined;
  body: O extends { schema: infer S extends z.ZodType }
    ? z.infer<S>
    : O extends { json: true }
      ? Record<string, unknown>
      : undefined;
};

type Auth =
  | { admin: false }
  | { admin: true; allowPendingPasswordChange?: boolean; allowPendingEnrollment?: boolean };

async function run<O extends ApiOptions>(
  args: ApiArgs,
  options: O,
  auth: Auth,
  handler: (ctx: ApiContext<O>, admin: AdminUser | null) => Response | Promise<Response>,
) {
  const { request } = args;
  const badMethod = () =>
    options.methods && !options.methods.includes(request.method)
      ? methodNotAllowed(options.allow ?? options.methods.join(", "))
      : null;
  if (options.methodFirst) {
    const refused = badMethod();
    if (refused) return refused;
  }
  if (options.refuseApiToken && bearerApiToken(request)) {
    return jsonError(API_TOKEN_MESSAGES.sessionOnly, 401);
  }
  const admin = auth.admin
    ? await requireApiAdmin(request, {
        allowPendingPasswordChange: auth.allowPendingPasswordChange,
        allowPendingEnrollment: auth.allowPendingEnrollment,
      })
    : null;
  if (!options.methodFirst) {
    const refused = badMethod();
    if (refused) return refused;
  }
  let id: number | undefined;
  if (options.id) {
    const parsed = parseId(args.params[options.id.param]);
    if (!parsed) return jsonError(options.id.notFound, 404);
    id = parsed;
  }
  let body: unknown;
  if (options.json || options.schema) {
    const read = await readJsonObject(request);
    if (!read.ok) return failureJson(read);
    body = read.value;
    if (options.schema) {
      const parsed = options.schema.safeParse(read.value);
      if (!parsed.success) {
        const fieldErrors = fieldErrorsOf(parsed.error);
        return jsonError(firstError(fieldErrors), 400, { fieldErrors });
      }
      body = parsed.data;
    }
  }
  return handler({ args, request, id, body } as ApiContext<O>, admin);
}

/**
 * An admin-only `/api` handler (401 without a session, 403 while the first password change or the
 * 2FA enrolment is pending).
 */
export function adminApi<const O extends ApiOptions>(
  options: O & { allowPendingPasswordChange?: boolean; allowPendingEnrollment?: boolean },
  handler: (ctx: ApiContext<O> & { admin: SessionAdmin }) => Response | Promise<Response>,
) {
  const auth: Auth = {
    admin: true,
    allowPendingPasswordChange: options.allowPendingPasswordChange,
    allowPendingEnrollment: options.allowPendingEnrollment,
  };
  return (args: ApiArgs) =>
    withApiFallback(options.fallback, () =>
      run(args, options, auth, (ctx, admin) => handler({ ...ctx, admin: admin as SessionAdmin })),
    );
}

/** A public `/api` handler. */
export function publicApi<const O extends ApiOptions>(
  options: O,
  handler: (ctx: ApiContext<O>) => Response | Promise<Response>,
) {
  return (args: ApiArgs) =>
    withApiFallback(options.fallback, () => run(args, options, { admin: false }, handler));
}

/** The other half of a one-method route: answers 405 (after authenticating, for admin routes). */
export function onlyMethod(allow: string, options: { admin?: boolean } = {}) {
  return async ({ request }: { request: Request }) => {
    if (options.admin) await requireApiAdmin(request);
    return methodNotAllowed(allow);
  };
}

/** `200 {success: true, ...payload}` with `Cache-Control: no-store` (admin reads). */
export function noStoreJson(payload: Record<string, unknown>) {
  return Response.json({ success: true, ...payload }, { headers: { "Cache-Control": "no-store" } });
}

/**
 * A JSON answer serialised in parts (adminRequestsJsonParts): `200`, `Cache-Control: no-store`,
 * the parts written one after the other, never joined into one big string or buffer (ADR 298).
 * With `key` the same bytes as `noStoreJson({ [key]: list })`, without it the bare list.
 */
export function noStoreJsonParts(parts: readonly Uint8Array[], key?: string) {
  const chunks = key
    ? [Buffer.from(`{"success":true,${JSON.stringify(key)}:`), ...parts, Buffer.from("}")]
    : parts;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  return new Response(body, {
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
  });
}
