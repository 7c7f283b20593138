/**
 * Challenge attachments: .jpg, .png, .pdf, .docx only, checked by extension AND by the first bytes
 * (a renamed executable is refused). Pure, so it is unit-tested without a server.
 */
const kinds = {
  ".jpg": { contentType: "image/jpeg", magic: [0xff, 0xd8, 0xff] },
  ".png": { contentType: "image/png", magic: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  ".pdf": { contentType: "application/pdf", magic: [0x25, 0x50, 0x44, 0x46] }, // %PDF
  // A .docx is a ZIP container.
  ".docx": { contentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document", magic: [0x50, 0x4b, 0x03, 0x04] },
} as const;

export type AttachmentExtension = keyof typeof kinds;

/** The bytes `sniffAttachment` needs to decide. */
export const SNIFF_BYTES = 8;

export function attachmentExtension(filename: string): AttachmentExtension | null {
  const dot = filename.lastIndexOf(".");
  const extension = dot >= 0 ? filename.slice(dot).toLowerCase() : "";
  return extension in kinds ? (extension as AttachmentExtension) : null;
}

export type SniffResult = { ok: true; contentType: string } | { ok: false; reason: "type" | "content" };

export function sniffAttachment(filename: string, head: Uint8Array): SniffResult {
  const extension = attachmentExtension(filename);
  if (!extension) return { ok: false, reason: "type" };
  const { magic, contentType } = kinds[extension];
  if (head.length < magic.length || magic.some((byte, index) => head[index] !== byte)) return { ok: false, reason: "content" };
  return { ok: true, contentType };
}
