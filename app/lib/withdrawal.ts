import { formatRequestId } from "./format";

/** The visitor's question before withdrawing a request (modal with JS, confirmation step without). */
export function withdrawalQuestion(id: number) {
  return `Möchtest du deine Anfrage #${formatRequestId(id)} wirklich zurückziehen? Sie wird mit allen Dateien und einem gebuchten Termin endgültig gelöscht.`;
}

export const WITHDRAW_PATH = "/anfrage-zurueckziehen";
