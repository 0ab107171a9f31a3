import { randomBytes } from "node:crypto";
import { createContext, data, type RouterContextProvider, redirect } from "react-router";
import { z } from "zod";
import type { Toast, ToastMessage } from "~/lib/toast";
import { signedCookie } from "./signed-cookie.server";

const FlashSchema = z.object({
  id: z.string().max(40),
  type: z.enum(["success", "error", "info"]),
  message: z.string().max(2000),
});

/** Signed, httpOnly, short-lived: carries one toast across a redirect (the no-JS path too). */
const flashCookie = signedCookie("__flash", 60);

/** The Set-Cookie value that carries `toast` to the next page the browser loads. */
export async function serializeToast(toast: Toast) {
  const value: ToastMessage = {
    id: randomBytes(8).toString("hex"),
    type: toast.type,
    message: toast.message.slice(0, 2000),
  };
  return flashCookie().serialize(value);
}

/** A redirect that shows a toast on the target page (root renders it, with or without JS). */
export async function redirectWithToast(url: string, toast: Toast, init?: number | ResponseInit) {
  const responseInit: ResponseInit = typeof init === "number" ? { status: init } : { ...init };
  const headers = new Headers(responseInit.headers);
  headers.append("Set-Cookie", await serializeToast(toast));
  return redirect(url, { ...responseInit, headers });
}

/** A toast an action answered with in this same request (a document POST renders it at once). */
const actionToast = createContext<ToastMessage | null>(null);

/**
 * An answer without a redirect (a refused form shown again) that still shows a toast: without
 * JavaScript the page of this same POST renders it (root reads it from the request context); with
 * JavaScript (a `.data` request) the flash cookie carries it to the root loader's revalidation.
 */
export async function dataWithToast<T>(
  request: Request,
  context: Readonly<RouterContextProvider>,
  body: T,
  toast: Toast,
  status = 200,
) {
  const headers = new Headers();
  if (new URL(request.url).pathname.endsWith(".data")) {
    headers.append("Set-Cookie", await serializeToast(toast));
  } else {
    context.set(actionToast, {
      id: randomBytes(8).toString("hex"),
      type: toast.type,
      message: toast.message.slice(0, 2000),
    });
  }
  return data(body, { status, headers });
}

/** Reads the flash toast of this request; `headers` clears it (send them with the response). */
export async function getToast(
  request: Request,
  context?: Readonly<RouterContextProvider>,
): Promise<{ toast: ToastMessage | null; headers: Headers }> {
  const headers = new Headers();
  const now = context?.get(actionToast);
  if (now) return { toast: now, headers };
  const header = request.headers.get("cookie");
  if (!header?.includes("__flash=")) return { toast: null, headers };
  const parsed = FlashSchema.safeParse(await flashCookie().parse(header));
  headers.append("Set-Cookie", await flashCookie().serialize("", { maxAge: 0 }));
  return { toast: parsed.success ? parsed.data : null, headers };
}
