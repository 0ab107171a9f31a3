/** The flash toast as it travels from the server (signed cookie) to the page (wire type, pure). */
export type ToastType = "success" | "error" | "info";
/** What an action asks for: `redirectWithToast(back, { type, message })`. */
export type Toast = { type: ToastType; message: string };
/** What the page shows (the id keys the toast list). */
export type ToastMessage = Toast & { id: string };
