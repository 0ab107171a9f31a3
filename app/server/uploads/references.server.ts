import { eq } from "drizzle-orm";
import { attachments, requests } from "~db/schema";
import { db } from "../platform/db.server";

/** Whether a request's attachment or voice recording is stored under `key` (both are indexed). */
export function isRequestUpload(key: string): boolean {
  const attachment = db()
    .select({ id: attachments.id })
    .from(attachments)
    .where(eq(attachments.filename, key))
    .get();
  if (attachment) return true;
  return !!db().select({ id: requests.id }).from(requests).where(eq(requests.audioKey, key)).get();
}
