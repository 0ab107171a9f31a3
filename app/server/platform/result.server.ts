import type { Submission } from "@conform-to/react";
import type { z } from "zod";
import { fieldErrorsOf } from "~/lib/field-errors";
import { SchedulingError } from "../appointments/scheduling/types";
import { redirectWithToast } from "../http/flash.server";
import { firstError, jsonError } from "../http/http.server";

/**
 * The one result type of a domain rule (ADR 240): `{ok: true, …payload}` or a `Failure` that
 * carries the HTTP status and the German message — decided once, in the domain function. `field`
 * names the input the message is about (a field error on the page, `fieldErrors` in JSON).
 */
export type Failure = {
  ok: false;
  status: number;
  error: string;
  field?: string;
  /** A 429: seconds until the next try (the `Retry-After` header of the JSON answer). */
  retryAfterSeconds?: number;
};
export type Ok<T extends object = object> = { ok: true } & T;
export type Result<T extends object = object> = Ok<T> | Failure;

export function failure(status: number, error: string, field?: string): Failure {
  return field ? { ok: false, status, error, field } : { ok: false, status, error };
}

/** A failed parse of a rule's schema: 400 with its first German message (and its field). */
export function invalid(error: z.ZodError): Failure {
  const fieldErrors = fieldErrorsOf(error);
  const field = Object.keys(fieldErrors)[0];
  return failure(400, firstError(fieldErrors), field === "form" ? undefined : field);
}

/** `/api`: `{success: false, error, message[, fieldErrors]}` with the failure's status. */
export function failureJson(f: Failure, headers?: HeadersInit) {
  const retry = f.retryAfterSeconds ? { "Retry-After": String(f.retryAfterSeconds) } : undefined;
  return jsonError(f.error, f.status, {
    fieldErrors: f.field ? { [f.field]: [f.error] } : undefined,
    headers: retry ? { ...Object.fromEntries(new Headers(headers)), ...retry } : headers,
  });
}

/** A page: back to `to` with the message as an error toast. */
export function failureToast(to: string, f: Failure) {
  return redirectWithToast(to, { type: "error", message: f.error });
}

/** A Conform form: the message under its field, else as the form's error. */
export function failureReply<T>(
  submission: Submission<T>,
  f: Failure,
  options: { hideFields?: string[] } = {},
) {
  return submission.reply({
    ...options,
    ...(f.field ? { fieldErrors: { [f.field]: [f.error] } } : { formErrors: [f.error] }),
  });
}

/**
 * Runs a scheduling call; the provider's `SchedulingError` (thrown deep inside Cal.com and the
 * built-in scheduler) comes back as a `Failure`, anything else is a bug and is rethrown.
 */
export async function scheduling<T>(run: () => Promise<T>): Promise<Ok<{ value: T }> | Failure> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    if (error instanceof SchedulingError) return failure(error.status, error.message);
    throw error;
  }
}
