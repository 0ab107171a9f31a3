import { RouterContextProvider } from "react-router";
import type { z } from "zod";
import { API_TOKEN_MESSAGES } from "~/lib/api-tokens";
import { fieldErrorsOf } from "~/lib/field-errors";
import {
  bearerApiToken,
  bindTokenAccess,
  type TokenAccess,
} from "../accounts/api-tokens/authorize.server";
import { type AdminUser, requireApiAdmin, type SessionAdmin } from "../accounts/auth.server";
import { failureJson } from "../platform/result.server";
import { registerTestHooks } from "../platform/test-hooks.server";
import { firstError, jsonError, methodNotAllowed, parseId, withApiFallback } from "./http.server";
import { readJsonObject } from "./json-body.server";

/**
 * The one shape of an `/api` route (style.md "One HTTP adapter"): the German 500 fallback, the
 * method check, authentication, the id param and the bounded JSON body, always in this order —
 * method first only when `methodFirst` says so —, so a route module says only what is special.
 * An admin handler also names who may call it with an API token (`scope`, ADR 306): the route
 * module that runs decides, whatever spelling of its path reached it.
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
  /**
   * A call the spec gave a `?token=` (attachments): any `token` query parameter → 401 before
   * authentication, so not even a request that also carries a cookie gets through (ADR 260).
   */
  refuseQueryToken?: boolean;
};

/** 401 for a credential in the URL: it would end up in logs, the history and `Referer` headers. */
export const QUERY_TOKEN_REFUSED =
  "Ein Zugangsschlüssel in der Adresse wird nicht akzeptiert. Bitte melden Sie sich an oder senden Sie ihn im Authorization-Header.";

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

/** The options of an admin handler on top of ApiOptions. */
export type AdminApiOptions = {
  /**
   * Who may make this call with an API token (ADR 306): the holders of this scope (403 for the
   * other tokens), or `"session"` — only a logged-in admin, a token gets 401 whatever its scopes.
   * It covers the methods this handler answers; a method it refuses (405) is `"session"`.
   */
  scope: TokenAccess;
  allowPendingPasswordChange?: boolean;
  allowPendingEnrollment?: boolean;
};

type Auth = { admin: false } | ({ admin: true } & AdminApiOptions);

/** Whether a handler answers this method (else 405). */
const answers = (options: ApiOptions, method: string) =>
  !options.methods || options.methods.includes(method);

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
  if (options.refuseQueryToken && new URL(request.url).searchParams.has("token")) {
    return jsonError(QUERY_TOKEN_REFUSED, 401);
  }
  // The authoriser reads the token access from the request it is asked about (ADR 306).
  if (auth.admin)
    bindTokenAccess(request, answers(options, request.method) ? auth.scope : "session");
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
 * 2FA enrolment is pending); `scope` says which API token may call it.
 */
export function adminApi<const O extends ApiOptions>(
  options: O & AdminApiOptions,
  handler: (ctx: ApiContext<O> & { admin: SessionAdmin }) => Response | Promise<Response>,
) {
  const auth: Auth = {
    admin: true,
    scope: options.scope,
    allowPendingPasswordChange: options.allowPendingPasswordChange,
    allowPendingEnrollment: options.allowPendingEnrollment,
  };
  return (args: ApiArgs) =>
    probed(args.request, () => shapeOf(options, auth, args.request.method)) ??
    withApiFallback(options.fallback, () =>
      run(args, options, auth, (ctx, admin) => handler({ ...ctx, admin: admin as SessionAdmin })),
    );
}

/** A public `/api` handler. */
export function publicApi<const O extends ApiOptions>(
  options: O,
  handler: (ctx: ApiContext<O>) => Response | Promise<Response>,
) {
  const auth: Auth = { admin: false };
  return (args: ApiArgs) =>
    probed(args.request, () => shapeOf(options, auth, args.request.method)) ??
    withApiFallback(options.fallback, () => run(args, options, auth, handler));
}

/**
 * The other half of a one-method route: answers 405 (after authenticating, for admin routes; a
 * token there gets 401, the method being no call it may make).
 */
export function onlyMethod(allow: string, options: { admin?: boolean } = {}) {
  return async ({ request }: { request: Request }) => {
    const described = probed(request, () => ({
      access: options.admin ? ("admin" as const) : ("public" as const),
      token: options.admin ? ("session" as const) : ("public" as const),
      answers: false,
    }));
    if (described) return described;
    if (options.admin) await requireApiAdmin(request);
    return methodNotAllowed(allow);
  };
}

/**
 * What an `/api` handler does with one method, read from its options without running it (ADR 306):
 * the route matrix and the scope policy test derive the `/api` table from the route modules so.
 */
export type ApiCallShape = {
  /** Who may call: anyone, an admin, or an admin whose password change / 2FA enrolment is pending. */
  access: "public" | "admin" | "admin-pending" | "admin-enrol";
  /** An API token: within this scope, never (`"session"`: 401), or not looked at (`"public"`). */
  token: TokenAccess | "public";
  /** False when the method is refused with 405. */
  answers: boolean;
};

function shapeOf(options: ApiOptions, auth: Auth, method: string): ApiCallShape {
  const answered = answers(options, method);
  if (!auth.admin) {
    return {
      access: "public",
      token: options.refuseApiToken ? "session" : "public",
      answers: answered,
    };
  }
  return {
    access: auth.allowPendingPasswordChange
      ? "admin-pending"
      : auth.allowPendingEnrollment
        ? "admin-enrol"
        : "admin",
    token: answered ? auth.scope : "session",
    answers: answered,
  };
}

// Requests made by describeApiCall (never one that came over HTTP): a handler answers them with
// its shape, as the response's stand-in, instead of running.
const probes = new WeakMap<Request, ApiCallShape | null>();

function probed(request: Request, shape: () => ApiCallShape): Response | null {
  if (!probes.has(request)) return null;
  probes.set(request, shape());
  return new Response(null, { status: 204 });
}

/**
 * The shape of one method of a route module's loader or action: a handler built here tells it;
 * any other function (a method dispatcher calls the handler of that method; a bare 405) runs.
 */
async function describeApiCall(
  handler: (args: ApiArgs) => unknown,
  method: string,
): Promise<ApiCallShape | { status: number }> {
  const request = new Request("http://describe.invalid/", { method });
  probes.set(request, null);
  let result: unknown;
  try {
    result = await handler({ request, params: {}, context: new RouterContextProvider() });
  } catch (thrown) {
    result = thrown;
  }
  return probes.get(request) ?? { status: result instanceof Response ? result.status : 0 };
}

registerTestHooks({ describeApiCall });

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
