/**
 * How a submitted file may be shown to a judge (docs/domain.md "Judging"): decided from its first bytes,
 * never from the name or the type the uploader's browser claimed. Only formats a browser shows without
 * running anything of the file's are shown inline: raster images, PDF (in the browser's own viewer) and
 * plain text (as text in our page). SVG, HTML and whatever the bytes cannot vouch for are download-only.
 * Pure: the bytes come from storage through the caller.
 */

export type InlineType = "image/png" | "image/jpeg" | "image/gif" | "image/webp" | "application/pdf";

export type FileView = { kind: "image"; type: InlineType } | { kind: "pdf"; type: "application/pdf" } | { kind: "text" } | { kind: "download" };

/** Enough to recognise every inline format. */
export const SNIFF_BYTES = 4096;
/** How much of a text file is shown in the page; the rest is a download away. */
export const TEXT_PREVIEW_BYTES = 64 * 1024;

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((byte, index) => bytes[offset + index] === byte);
const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));

const imageSignatures: Array<{ type: InlineType; test: (bytes: Uint8Array) => boolean }> = [
  { type: "image/png", test: (bytes) => startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { type: "image/jpeg", test: (bytes) => startsWith(bytes, [0xff, 0xd8, 0xff]) },
  { type: "image/gif", test: (bytes) => startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a")) },
  { type: "image/webp", test: (bytes) => startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8) },
];

/** Markup a browser would render (and run) if it were ever served as a page: never shown, even as text. */
const MARKUP = /^\s*<(?:!doctype|html|svg|\?xml|script|head|body|iframe|!--)/i;

/**
 * UTF-8 text: decodes strictly (a sequence cut by the end of `bytes` is allowed), no NUL, and no control
 * characters (C0 or C1) but tab, newline, carriage return, form feed and escape.
 */
export function decodeText(bytes: Uint8Array): string | null {
  let text: string;
  try {
    // Streaming: a character the read cut in two at the end waits for bytes that never come (left out),
    // while an invalid byte anywhere still throws.
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes, { stream: true });
  } catch {
    return null;
  }
  // eslint-disable-next-line no-control-regex -- exactly what is being refused
  return /[\u0000-\u0008\u000b\u000e-\u001a\u001c-\u001f\u007f-\u009f]/.test(text) ? null : text;
}

/** What the first bytes of a file (at least SNIFF_BYTES of it, or all of a shorter one) allow. */
export function fileView(start: Uint8Array): FileView {
  const head = start.subarray(0, SNIFF_BYTES);
  for (const signature of imageSignatures) if (signature.test(head)) return { kind: "image", type: signature.type };
  if (startsWith(head, ascii("%PDF-"))) return { kind: "pdf", type: "application/pdf" };
  if (head.length === 0) return { kind: "download" };
  const text = decodeText(head);
  if (text === null || MARKUP.test(text)) return { kind: "download" };
  return { kind: "text" };
}

const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;

/**
 * Text as a judge reads it: characters that reorder what follows (bidirectional overrides and isolates,
 * direction marks) are shown as their code, so code cannot read differently from how it runs.
 */
export function showControls(text: string): { text: string; reordering: boolean } {
  let reordering = false;
  const shown = text.replace(BIDI_CONTROLS, (char) => {
    reordering = true;
    return `⟨U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}⟩`;
  });
  return { text: shown, reordering };
}
