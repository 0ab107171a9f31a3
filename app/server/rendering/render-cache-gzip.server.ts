import { constants, crc32, deflateRawSync } from "node:zlib";

/**
 * Gzip for cached pages without compressing every response (ADR 161). A cached page is stored in
 * parts split at the CSP nonce; each part is deflated once, ending in a sync flush (byte-aligned,
 * not final), so the parts can be joined with the nonce in between as a stored (uncompressed)
 * deflate block. Per response only the gzip header, the nonce blocks, the CRC-32 and the length
 * are new: a valid gzip member (RFC 1951 §3.2.4, RFC 1952).
 */

/** Each part deflated on its own, sync-flushed (never the final block). */
export function deflateParts(parts: Buffer[]): Buffer[] {
  return parts.map((part) =>
    deflateRawSync(part, {
      level: constants.Z_BEST_COMPRESSION,
      finishFlush: constants.Z_SYNC_FLUSH,
    }),
  );
}

const HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff]);
/** An empty stored block with BFINAL set: ends the deflate stream. */
const FINAL = Buffer.from([0x01, 0x00, 0x00, 0xff, 0xff]);

/** A non-final stored block holding `data` (≤ 65,535 bytes), starting on a byte boundary. */
function storedBlock(data: Buffer) {
  const head = Buffer.alloc(5);
  head[0] = 0x00;
  head.writeUInt16LE(data.length, 1);
  head.writeUInt16LE(~data.length & 0xffff, 3);
  return [head, data];
}

/** The gzip body of `parts` joined with `separator` (the nonce); `deflated` from deflateParts. */
export function gzipJoined(parts: Buffer[], deflated: Buffer[], separator: Buffer) {
  if (separator.length > 0xffff) throw new Error("separator too long for one stored block");
  const chunks: Buffer[] = [HEADER];
  let crc = 0;
  let size = 0;
  for (let i = 0; i < parts.length; i++) {
    if (i) {
      chunks.push(...storedBlock(separator));
      crc = crc32(separator, crc);
      size += separator.length;
    }
    chunks.push(deflated[i]);
    crc = crc32(parts[i], crc);
    size += parts[i].length;
  }
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(size >>> 0, 4);
  chunks.push(FINAL, trailer);
  return Buffer.concat(chunks);
}

/** Whether the Accept-Encoding header allows gzip (an explicit `gzip;q=0` refuses it). */
export function acceptsGzip(header: string | null): boolean {
  if (!header) return false;
  let any = false;
  for (const item of header.split(",")) {
    const [name, ...params] = item.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const allowed = q === undefined || Number(q.slice(2)) > 0;
    if (name.trim() === "gzip" || name.trim() === "x-gzip") return allowed;
    if (name.trim() === "*") any = allowed;
  }
  return any;
}
