/**
 * A file name a user chose, as we show it and send it back (docs/RELIABILITY.md, "Web security"): every
 * character that is invisible or moves the text around it is shown as its code point, "<U+202E>", never
 * passed on. So "photo\u202Egnp.scr" (a right-to-left override that makes it read "photorcs.png") is shown
 * as "photo<U+202E>gnp.scr": the judge sees that something was there, and the real extension stays last.
 *
 * Shown so: control characters (C0, C1), format characters (Cf: the direction marks, embeddings, overrides
 * and isolates U+200E/U+200F, U+202A–U+202E, U+2066–U+2069, U+061C, zero-width U+200B–U+200D, U+2060,
 * U+FEFF…), the other default-ignorable code points (fillers, variation selectors) and the line and
 * paragraph separators.
 *
 * New uploads are stored in this form (`safeFileName`, app/modules/form-fields.ts); names stored before are
 * passed through `shownFileName` where they are read, so a page, a table, the API's JSON and a download's
 * `Content-Disposition` (`contentDisposition`) all show the same name.
 */

const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/gu;

function codePoint(character: string): string {
  return `<U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}>`;
}

/** The name as shown and sent back: every invisible or direction-changing character as its code point. */
export function shownFileName(name: string): string {
  return name.replace(HIDDEN, codePoint);
}

/** `shownFileName`, keeping null (a row with no file). */
export function shownFileNameOrNull(name: string | null): string | null {
  return name === null ? null : shownFileName(name);
}

/** RFC 5987's attr-char: what a `filename*` value may carry unencoded. */
function encodeExtValue(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * A `Content-Disposition` header (RFC 6266) for a file under its shown name: `filename*` carries it in
 * UTF-8, and `filename` an ASCII fallback for old clients (other characters, quotes and backslashes as "_").
 */
export function contentDisposition(name: string, disposition: "attachment" | "inline" = "attachment"): string {
  const shown = shownFileName(name);
  const ascii = shown.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encodeExtValue(shown)}`;
}
