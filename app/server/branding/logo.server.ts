import { createHash } from "node:crypto";
import { type Logo, logoUrl } from "~/lib/branding";
import { getConfiguration, saveLogoReference } from "../configuration/configuration.server";
import { BodyError, readBodyBytes } from "../http/http.server";
import { failure, type Result } from "../platform/result.server";
import { fileStorage } from "../storage/storage.server";
import { isRequestUpload } from "../uploads/references.server";
import { isStorageKey } from "../uploads/store.server";

/**
 * The agency's logo (ADRs 268, 293): PNG, JPEG or WebP up to 256 KB, recognised by its first bytes
 * (never by name or declared type; SVG, which can carry script, is refused), stored in the upload
 * storage under `logo-<hash>.<type>` — a name no upload can have — and named in `branding.logo`,
 * which only these functions set (ADR 293). The upload sweep keeps it (`logoStorageKey` is among
 * the referenced keys). A logo stored before under `<hash>.<type>` (the shape of an upload's key) is
 * still served, and deleted on replacement only when no request's attachment or recording has it.
 */
export const LOGO_MAX_BYTES = 256 * 1024;
export const LOGO_TOO_LARGE = "Das Logo darf höchstens 256 KB groß sein.";
export const LOGO_WRONG_TYPE =
  "Bitte laden Sie das Logo als PNG, JPEG oder WebP hoch (SVG und andere Formate sind nicht erlaubt).";
export const LOGO_MISSING = "Bitte wählen Sie eine Bilddatei für das Logo aus.";

const CONTENT_TYPES: Record<Logo["type"], string> = {
  png: "image/png",
  jpeg: "image/jpeg",
  webp: "image/webp",
};

/** The image type by its magic bytes, or null. */
export function sniffLogo(bytes: Uint8Array): Logo["type"] | null {
  const starts = (sig: number[], at = 0) => sig.every((b, i) => bytes[at + i] === b);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  if (starts([0xff, 0xd8, 0xff])) return "jpeg";
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return "webp";
  return null;
}

export const logoStorageKey = (logo: Logo) =>
  `${logo.prefixed ? "logo-" : ""}${logo.hash}.${logo.type}`;

const LOGO_KEY = /^logo-[0-9a-f]{32}\.(png|jpeg|webp)$/;

/**
 * Deletes a replaced or removed logo's file: one named `logo-…`; an older logo's `<hash>.<type>`
 * only when it is no request's upload (before ADR 293 the configuration API could name one).
 */
async function deleteLogoFile(logo: Logo): Promise<void> {
  const key = logoStorageKey(logo);
  const own = LOGO_KEY.test(key) || (isStorageKey(key) && !isRequestUpload(key));
  if (own) await fileStorage().remove(key);
}

/** The stored logo's key, for the upload sweep (null: none). */
export function referencedLogoKey(): string | null {
  const logo = getConfiguration().branding.logo;
  return logo ? logoStorageKey(logo) : null;
}

/** Checks and stores a logo file, names it in the configuration and drops the previous one. */
export async function saveLogo(file: unknown): Promise<Result<{ logoUrl: string }>> {
  if (!(file instanceof Blob) || file.size === 0) return failure(400, LOGO_MISSING, "logo");
  if (file.size > LOGO_MAX_BYTES) return failure(413, LOGO_TOO_LARGE, "logo");
  const bytes = new Uint8Array(await file.arrayBuffer());
  const type = sniffLogo(bytes);
  if (!type) return failure(415, LOGO_WRONG_TYPE, "logo");
  const hash = createHash("sha256").update(bytes).digest("hex").slice(0, 32);
  const logo: Logo = { hash, type, prefixed: true };
  const stored = new File([bytes], `logo.${type}`, { type: CONTENT_TYPES[type] });
  await fileStorage().set(logoStorageKey(logo), stored);
  const previous = getConfiguration().branding.logo;
  const saved = saveLogoReference(logo);
  if (!saved.ok) return failure(500, saved.error);
  if (previous && logoStorageKey(previous) !== logoStorageKey(logo)) await deleteLogoFile(previous);
  return { ok: true, logoUrl: logoUrl(logo) as string };
}

/** Removes the logo (the product's mark shows again). */
export async function removeLogo(): Promise<void> {
  const previous = getConfiguration().branding.logo;
  saveLogoReference(null);
  if (previous) await deleteLogoFile(previous);
}

/** The logo's form from a multipart body of at most 256 KB plus form overhead, or its failure. */
export async function readLogoForm(request: Request): Promise<Result<{ form: FormData }>> {
  const type = request.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("multipart/form-data")) return failure(400, LOGO_MISSING);
  let bytes: Awaited<ReturnType<typeof readBodyBytes>>;
  try {
    bytes = await readBodyBytes(request, LOGO_MAX_BYTES + 64 * 1024);
  } catch (error) {
    if (!(error instanceof BodyError)) throw error;
    return failure(error.status, error.status === 413 ? LOGO_TOO_LARGE : error.message);
  }
  try {
    return {
      ok: true,
      form: await new Response(bytes, { headers: { "content-type": type } }).formData(),
    };
  } catch {
    return failure(400, LOGO_MISSING);
  }
}

/**
 * GET /branding/logo: the stored logo as the image type its bytes were checked to be (nosniff
 * from helmet); long-cached, since a new logo gets a new `?v=` hash.
 */
export async function logoResponse(): Promise<Response> {
  const logo = getConfiguration().branding.logo;
  // An older logo's `<hash>.<type>` that is a request's upload is never published.
  const key = logo ? logoStorageKey(logo) : null;
  const servable = key !== null && (LOGO_KEY.test(key) || !isRequestUpload(key));
  const file = key && servable ? ((await fileStorage().get(key)) as File | null) : null;
  if (!logo || !file) {
    return new Response("Kein Logo hinterlegt.", {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  return new Response(file.stream(), {
    headers: {
      "Content-Type": CONTENT_TYPES[logo.type],
      "Content-Length": String(file.size),
      "Cache-Control": "public, max-age=31536000, immutable",
      "Content-Disposition": "inline",
    },
  });
}
