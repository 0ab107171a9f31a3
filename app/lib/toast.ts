/** The flash toast as it travels from the server (signed cookie) to the page (wire type, pure). */
export type ToastType = "success" | "error" | "info";
export type ToastMessage = { id: string; type: ToastType; message: string };
