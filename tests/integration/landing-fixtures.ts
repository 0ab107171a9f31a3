/** Small files with real magic bytes for upload tests. */
export const MB = 1024 * 1024;

export const pdfBytes = (size = 200) => {
  const head = Buffer.from("%PDF-1.4\n1 0 obj\n<<>>\nendobj\n");
  const buf = Buffer.alloc(Math.max(size, head.length + 8), 0x20);
  head.copy(buf);
  Buffer.from("\n%%EOF\n").copy(buf, buf.length - 7);
  return buf;
};

export const pngBytes = () =>
  Buffer.from(
    "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c63000100000500010d0a2db40000000049454e44ae426082",
    "hex",
  );

/** A Windows executable header ("MZ" ... "PE"). */
export const exeBytes = () => {
  const buf = Buffer.alloc(512, 0);
  buf.write("MZ", 0, "latin1");
  buf.writeUInt32LE(0x80, 0x3c);
  buf.write("PE\0\0", 0x80, "latin1");
  return buf;
};

/** A minimal WebM (EBML header with DocType webm). */
export const webmBytes = () =>
  Buffer.concat([
    Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f]),
    Buffer.from([0x42, 0x86, 0x81, 0x01, 0x42, 0xf7, 0x81, 0x01, 0x42, 0xf2, 0x81, 0x04]),
    Buffer.from([0x42, 0xf3, 0x81, 0x08, 0x42, 0x82, 0x84]),
    Buffer.from("webm"),
    Buffer.from([0x42, 0x87, 0x81, 0x04, 0x42, 0x85, 0x81, 0x02]),
    Buffer.alloc(256, 0),
  ]);

export const validFields = (overrides: Record<string, string> = {}) => ({
  name: "Anna Beispiel",
  email: `anna.${Math.random().toString(36).slice(2, 8)}@example.com`,
  phone: "+49 221 123456",
  companyDescription: "Wir sind eine Bäckerei mit fünf Filialen in Köln.",
  description: "Eine App, mit der Kundinnen Brötchen vorbestellen können.",
  ...overrides,
});

export function multipart(
  fields: Record<string, string>,
  files: { field?: string; name: string; bytes: Buffer; type?: string }[] = [],
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  for (const f of files) {
    form.append(
      f.field ?? "attachments",
      new Blob([new Uint8Array(f.bytes)], { type: f.type ?? "application/octet-stream" }),
      f.name,
    );
  }
  return form;
}
